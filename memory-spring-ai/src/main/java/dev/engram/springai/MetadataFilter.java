/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.InvalidInputException;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * Evaluates a Spring AI {@link Filter.Expression} over one document's metadata. A missing key reads
 * as null: {@code ==}, {@code <}, {@code >} and {@code in} are false for it, {@code !=} and
 * {@code nin} are true, {@code isNull} is true. Numbers compare by value whatever their Java type
 * ({@code 2023} equals {@code 2023.0}); strings compare by their characters; values of different
 * kinds are never equal and never ordered.
 */
final class MetadataFilter {
  private MetadataFilter() {}

  static boolean matches(Filter.Expression expression, Map<String, Object> metadata) {
    Objects.requireNonNull(expression, "filterExpression");
    return eval(expression, metadata);
  }

  private static boolean eval(Filter.Operand operand, Map<String, Object> metadata) {
    if (operand instanceof Filter.Group group) {
      return eval(group.content(), metadata);
    }
    if (!(operand instanceof Filter.Expression e)) {
      throw new InvalidInputException("filterExpression", "expected an expression or group, found " + describe(operand));
    }
    switch (e.type()) {
      case AND:
        return eval(required(e.left(), e), metadata) && eval(required(e.right(), e), metadata);
      case OR:
        return eval(required(e.left(), e), metadata) || eval(required(e.right(), e), metadata);
      case NOT:
        return !eval(required(e.left(), e), metadata);
      case ISNULL:
        return metadata.get(key(e)) == null;
      case ISNOTNULL:
        return metadata.get(key(e)) != null;
      default:
        break;
    }
    Object actual = metadata.get(key(e));
    if (!(e.right() instanceof Filter.Value v)) {
      throw new InvalidInputException("filterExpression", e.type() + " needs a value on the right, found " + describe(e.right()));
    }
    Object expected = v.value();
    switch (e.type()) {
      case EQ:
        return actual != null && same(actual, expected);
      case NE:
        return actual == null || !same(actual, expected);
      case GT:
        return comparable(actual, expected) && compare(actual, expected) > 0;
      case GTE:
        return comparable(actual, expected) && compare(actual, expected) >= 0;
      case LT:
        return comparable(actual, expected) && compare(actual, expected) < 0;
      case LTE:
        return comparable(actual, expected) && compare(actual, expected) <= 0;
      case IN:
        return actual != null && anyMatch(actual, list(e, expected));
      case NIN:
        return actual == null || !anyMatch(actual, list(e, expected));
      default:
        throw new InvalidInputException("filterExpression", "unsupported operator " + e.type());
    }
  }

  private static Filter.Operand required(Filter.@Nullable Operand operand, Filter.Expression parent) {
    if (operand == null) {
      throw new InvalidInputException("filterExpression", parent.type() + " is missing an operand");
    }
    return operand;
  }

  private static String key(Filter.Expression e) {
    if (!(e.left() instanceof Filter.Key k)) {
      throw new InvalidInputException("filterExpression", e.type() + " needs a key on the left, found " + describe(e.left()));
    }
    String key = k.key();
    // the text parser keeps quotes around quoted keys
    if (key.length() >= 2 && (key.startsWith("'") && key.endsWith("'") || key.startsWith("\"") && key.endsWith("\""))) {
      key = key.substring(1, key.length() - 1);
    }
    return key;
  }

  private static Collection<?> list(Filter.Expression e, @Nullable Object expected) {
    if (!(expected instanceof Collection<?> values)) {
      throw new InvalidInputException("filterExpression", e.type() + " needs a list of values, found " + describe(expected));
    }
    return values;
  }

  private static boolean anyMatch(Object actual, Collection<?> values) {
    for (Object candidate : values) {
      if (candidate != null && same(actual, candidate)) {
        return true;
      }
    }
    return false;
  }

  private static boolean same(Object actual, @Nullable Object expected) {
    if (expected == null) {
      return false;
    }
    if (actual instanceof Number a && expected instanceof Number b) {
      return decimal(a).compareTo(decimal(b)) == 0;
    }
    return actual.equals(expected);
  }

  private static boolean comparable(@Nullable Object actual, @Nullable Object expected) {
    return actual != null && expected != null
        && (actual instanceof Number && expected instanceof Number
            || actual instanceof String && expected instanceof String);
  }

  /** Orders two values for which {@link #comparable} holds. */
  private static int compare(@Nullable Object actual, @Nullable Object expected) {
    if (actual instanceof Number a && expected instanceof Number b) {
      return decimal(a).compareTo(decimal(b));
    }
    return ((String) actual).compareTo((String) expected);
  }

  private static BigDecimal decimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof Double d && (d.isNaN() || d.isInfinite()) || n instanceof Float f && (f.isNaN() || f.isInfinite())) {
      throw new InvalidInputException("filterExpression", "cannot compare the number " + n);
    }
    return new BigDecimal(n.toString());
  }

  private static String describe(@Nullable Object o) {
    return o == null ? "nothing" : o.getClass().getSimpleName() + " " + o;
  }
}

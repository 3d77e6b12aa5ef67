/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The error rule for caller mistakes, swept over every public value type of the API and the SPI: a
 * constructor given a bad value throws {@link InvalidInputException} naming the field, and
 * {@link NullPointerException} for a null that is not allowed — never {@code IllegalArgumentException}
 * or anything else.
 */
class ValueTypeErrorsTest {
  private static final List<Object> BAD_INTS = List.of(-1, 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
  private static final List<Object> BAD_LONGS = List.of(-1L, 0L, Long.MIN_VALUE, Long.MAX_VALUE);
  private static final List<Object> BAD_DOUBLES =
      List.of(-1.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 2.0);
  private static final List<Object> BAD_STRINGS = List.of("", " ", "\u0000", "a/../b", "x".repeat(100_000));
  private static final List<Object> BAD_DURATIONS = List.of(Duration.ZERO, Duration.ofSeconds(-1));

  @Test
  void everyValueTypeRejectsBadValuesWithTheTypedErrors() throws Exception {
    List<Class<?>> records = valueTypes();
    assertThat(records).as("the sweep found the value types").hasSizeGreaterThan(20)
        .contains(Citation.class, ReadOptions.class, HistoryOptions.class, MemoryEvent.class);
    List<String> wrong = new ArrayList<>();
    int tried = 0;
    for (Class<?> type : records) {
      RecordComponent[] components = type.getRecordComponents();
      Class<?>[] parameterTypes = Stream.of(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
      Constructor<?> constructor = type.getDeclaredConstructor(parameterTypes);
      for (int i = 0; i < components.length; i++) {
        for (Object bad : badValues(components[i])) {
          Object[] args = new Object[components.length];
          for (int j = 0; j < components.length; j++) {
            args[j] = j == i ? bad : plausible(components[j].getType());
          }
          tried++;
          String problem = problem(constructor, args, components[i], bad);
          if (problem != null) {
            wrong.add(type.getSimpleName() + "." + components[i].getName() + " = " + describe(bad) + ": " + problem);
          }
        }
      }
    }
    assertThat(tried).isGreaterThan(100);
    assertThat(wrong).as("constructors breaking the error rule").isEmpty();
  }

  /** Null for a component that is not {@code @Nullable} is a NullPointerException naming it. */
  @Test
  void nullsAreNullPointerExceptionsNamingTheComponent() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (Class<?> type : valueTypes()) {
      RecordComponent[] components = type.getRecordComponents();
      Class<?>[] parameterTypes = Stream.of(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
      Constructor<?> constructor = type.getDeclaredConstructor(parameterTypes);
      for (int i = 0; i < components.length; i++) {
        RecordComponent c = components[i];
        if (c.getType().isPrimitive() || c.isAnnotationPresent(Nullable.class)
            || c.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
          continue;
        }
        Object[] args = new Object[components.length];
        for (int j = 0; j < components.length; j++) {
          args[j] = j == i ? null : plausible(components[j].getType());
        }
        try {
          constructor.newInstance(args);
        } catch (InvocationTargetException e) {
          Throwable t = e.getCause();
          if (!(t instanceof NullPointerException || t instanceof InvalidInputException)) {
            wrong.add(type.getSimpleName() + "." + c.getName() + " = null: " + t);
          }
        }
      }
    }
    assertThat(wrong).as("null handling breaking the error rule").isEmpty();
  }

  private static @Nullable String problem(Constructor<?> constructor, Object[] args, RecordComponent component, Object bad)
      throws ReflectiveOperationException {
    try {
      constructor.newInstance(args);
      return null;
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof InvalidInputException invalid) {
        return invalid.field().isBlank() ? "InvalidInputException without a field" : null;
      }
      if (t instanceof NullPointerException) {
        return null; // another component's plausible value may be null where none is allowed
      }
      return t.getClass().getName() + ": " + t.getMessage();
    }
  }

  private static List<Object> badValues(RecordComponent c) {
    Class<?> t = c.getType();
    if (t == int.class) {
      return BAD_INTS;
    }
    if (t == long.class) {
      return BAD_LONGS;
    }
    if (t == double.class) {
      return BAD_DOUBLES;
    }
    if (t == String.class) {
      return BAD_STRINGS;
    }
    if (t == Duration.class) {
      return BAD_DURATIONS;
    }
    if (t == List.class) {
      return List.of(List.of(""), List.of("x".repeat(10_000)));
    }
    if (t == float[].class) {
      return List.of(new float[0], new float[] {Float.NaN});
    }
    return List.of();
  }

  private static @Nullable Object plausible(Class<?> t) {
    if (t == int.class) {
      return 1;
    }
    if (t == long.class) {
      return 1L;
    }
    if (t == double.class) {
      return 0.5;
    }
    if (t == float.class) {
      return 0.5f;
    }
    if (t == boolean.class) {
      return false;
    }
    if (t == String.class) {
      return "app/user";
    }
    if (t == List.class) {
      return List.of();
    }
    if (t == Set.class) {
      return Set.of();
    }
    if (t == Map.class) {
      return Map.of();
    }
    if (t == Instant.class) {
      return Instant.EPOCH;
    }
    if (t == Duration.class) {
      return Duration.ofSeconds(1);
    }
    if (t == float[].class) {
      return new float[] {1f};
    }
    if (t == byte[].class) {
      return new byte[4];
    }
    if (t.isEnum()) {
      return t.getEnumConstants()[0];
    }
    return null;
  }

  private static String describe(Object v) {
    String s = v instanceof float[] f ? java.util.Arrays.toString(f) : String.valueOf(v);
    return s.length() > 40 ? s.substring(0, 40) + "…(" + s.length() + ")" : s;
  }

  /** Every public record of {@code dev.engram} and {@code dev.engram.spi}, read from the compiled classes. */
  private static List<Class<?>> valueTypes() throws IOException, URISyntaxException, ClassNotFoundException {
    Path root = Path.of(Citation.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> out = new ArrayList<>();
    for (String pkg : List.of("dev/engram", "dev/engram/spi")) {
      try (Stream<Path> files = Files.list(root.resolve(pkg))) {
        for (Path f : files.sorted().toList()) {
          String name = f.getFileName().toString();
          if (!name.endsWith(".class") || name.contains("$")) {
            continue;
          }
          Class<?> c = Class.forName(pkg.replace('/', '.') + "." + name.substring(0, name.length() - 6));
          if (c.isRecord() && Modifier.isPublic(c.getModifiers())) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }
}

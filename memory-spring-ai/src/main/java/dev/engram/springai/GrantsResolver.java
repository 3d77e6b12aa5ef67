/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Grants;
import dev.engram.InvalidInputException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Trusted application code that turns a conversation id (or any key the application puts into the
 * advisor or tool context) into the {@link Grants} that conversation may use. The model never
 * supplies it: the application does, from its own session or security context.
 */
@FunctionalInterface
public interface GrantsResolver {
  /** The placeholder a {@linkplain #template(String) template} replaces. */
  String PLACEHOLDER = "{id}";

  /**
   * The grants for one key.
   *
   * @param key the conversation id or other application key
   * @return the grants to run under
   * @throws InvalidInputException if the key cannot name grants
   */
  Grants resolve(String key);

  /**
   * Grants made by putting the key into a namespace template such as {@code app/user/{id}}. The key
   * must be one namespace segment (letters, digits, {@code _}, {@code -}, {@code .}, {@code @}; no
   * {@code /}), so no key can reach another user's namespace or an ancestor.
   *
   * @param template a namespace with exactly one {@value #PLACEHOLDER}
   * @return the resolver
   * @throws InvalidInputException if the template has no or several placeholders, or is not a
   *     namespace once filled
   */
  static GrantsResolver template(String template) {
    Objects.requireNonNull(template, "template");
    int at = template.indexOf(PLACEHOLDER);
    if (at < 0 || template.indexOf(PLACEHOLDER, at + 1) >= 0) {
      throw new InvalidInputException("grantsResolver",
          "'" + template + "' must contain " + PLACEHOLDER + " exactly once, e.g. app/user/" + PLACEHOLDER);
    }
    Grants.of(template.replace(PLACEHOLDER, "x"));
    Pattern segment = Pattern.compile("[A-Za-z0-9_@-][A-Za-z0-9_.@-]{0,127}");
    return key -> {
      Objects.requireNonNull(key, "key");
      if (!segment.matcher(key).matches() || key.equals("..") || key.equals(".")) {
        throw new InvalidInputException("conversationId",
            "'" + (key.length() > 40 ? key.substring(0, 40) + "…" : key)
                + "' is not one namespace segment (letters, digits, '_', '-', '.', '@'; at most 128)");
      }
      return Grants.of(template.replace(PLACEHOLDER, key));
    };
  }
}

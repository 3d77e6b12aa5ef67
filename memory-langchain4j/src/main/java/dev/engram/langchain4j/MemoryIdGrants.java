/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.langchain4j;

import dev.engram.Grants;
import dev.engram.InvalidInputException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Trusted application code that turns a LangChain4j chat memory id (the {@code @MemoryId} argument of
 * an AI service method) into the {@link Grants} of that conversation. The model never supplies it.
 */
@FunctionalInterface
public interface MemoryIdGrants {
  /** The placeholder a {@linkplain #template(String) template} replaces. */
  String PLACEHOLDER = "{id}";

  /**
   * The grants for one memory id.
   *
   * @param memoryId the chat memory id
   * @return the grants
   * @throws InvalidInputException if the id cannot name grants
   */
  Grants resolve(Object memoryId);

  /**
   * Grants made by putting the memory id into a namespace template such as {@code app/user/{id}}.
   * The id (its {@code toString()}) must be one namespace segment (letters, digits, {@code _},
   * {@code -}, {@code .}, {@code @}; no {@code /}), and LangChain4j's {@code "default"} id, which an AI
   * service without a {@code @MemoryId} parameter uses for every user, is refused.
   *
   * @param template a namespace with exactly one {@value #PLACEHOLDER}
   * @return the resolver
   * @throws InvalidInputException if the template is malformed
   */
  static MemoryIdGrants template(String template) {
    Objects.requireNonNull(template, "template");
    int at = template.indexOf(PLACEHOLDER);
    if (at < 0 || template.indexOf(PLACEHOLDER, at + 1) >= 0) {
      throw new InvalidInputException("template",
          "'" + template + "' must contain " + PLACEHOLDER + " exactly once, e.g. app/user/" + PLACEHOLDER);
    }
    Grants.of(template.replace(PLACEHOLDER, "x"));
    Pattern segment = Pattern.compile("[A-Za-z0-9_@-][A-Za-z0-9_.@-]{0,127}");
    return memoryId -> {
      String id = Objects.requireNonNull(memoryId, "memoryId").toString();
      if (id.equals("default")) {
        throw new InvalidInputException("memoryId",
            "is LangChain4j's shared 'default': give the AI service method a @MemoryId parameter");
      }
      if (!segment.matcher(id).matches()) {
        throw new InvalidInputException("memoryId", "'" + (id.length() > 40 ? id.substring(0, 40) + "…" : id)
            + "' is not one namespace segment (letters, digits, '_', '-', '.', '@'; at most 128)");
      }
      return Grants.of(template.replace(PLACEHOLDER, id));
    };
  }
}

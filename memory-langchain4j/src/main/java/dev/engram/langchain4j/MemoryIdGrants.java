/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.langchain4j;

import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.InvalidInputException;
import dev.langchain4j.service.memory.ChatMemoryService;
import java.util.Objects;

/**
 * Trusted application code that turns a LangChain4j chat memory id (the {@code @MemoryId} argument of
 * an AI service method) into the {@link Grants} of that conversation. The model never supplies it.
 */
@FunctionalInterface
public interface MemoryIdGrants {
  /** The placeholder a {@linkplain #template(String) template} replaces. */
  String PLACEHOLDER = Grants.Template.PLACEHOLDER;

  /**
   * The grants for one memory id.
   *
   * @param memoryId the chat memory id
   * @return the grants
   * @throws InvalidInputException if the id cannot name grants
   */
  Grants resolve(Object memoryId);

  /**
   * Grants made by putting the memory id into a namespace template such as {@code app/user/{id}}, by
   * {@link Grants#template(String)}: the id (its {@code toString()}) must be in the one id alphabet
   * ({@value Grants.Template#ID_ALPHABET}), and LangChain4j's {@link ChatMemoryService#DEFAULT} id ({@code "default"}), which an AI service
   * without a {@code @MemoryId} parameter uses for every user, is refused.
   *
   * @param template a namespace with exactly one {@value #PLACEHOLDER}
   * @return the resolver; it throws {@link InvalidGrantException} for an id outside the alphabet or
   *     the default id
   * @throws InvalidGrantException if the template is malformed
   */
  static MemoryIdGrants template(String template) {
    Grants.Template grants = Grants.template(template).refusing(ChatMemoryService.DEFAULT,
        "it is LangChain4j's shared default memory id: give the AI service method a @MemoryId parameter");
    return memoryId -> grants.grants(Objects.requireNonNull(memoryId, "memoryId").toString());
  }
}

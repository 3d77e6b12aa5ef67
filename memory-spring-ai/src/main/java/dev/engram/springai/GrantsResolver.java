/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.InvalidInputException;
import java.util.Objects;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * Trusted application code that turns a conversation id (or any key the application puts into the
 * advisor or tool context) into the {@link Grants} that conversation may use. The model never
 * supplies it: the application does, from its own session or security context.
 */
@FunctionalInterface
public interface GrantsResolver {
  /** The placeholder a {@linkplain #template(String) template} replaces. */
  String PLACEHOLDER = Grants.Template.PLACEHOLDER;

  /**
   * The grants for one key.
   *
   * @param key the conversation id or other application key
   * @return the grants to run under
   * @throws InvalidInputException if the key cannot name grants
   */
  Grants resolve(String key);

  /**
   * Grants made by putting the key into a namespace template such as {@code app/user/{id}}, by
   * {@link Grants#template(String)}: the key must be in the one id alphabet
   * ({@value Grants.Template#ID_ALPHABET}), so no key can reach another user's namespace or an
   * ancestor. Spring AI's {@link ChatMemory#DEFAULT_CONVERSATION_ID}, which chat memory advisors use
   * for every request that names no conversation, is refused: all such requests would otherwise share
   * one namespace.
   *
   * @param template a namespace with exactly one {@value #PLACEHOLDER}
   * @return the resolver; it throws {@link InvalidGrantException} for a key outside the alphabet or
   *     the default conversation id
   * @throws InvalidGrantException if the template has no or several placeholders, or is not a
   *     namespace once filled
   */
  static GrantsResolver template(String template) {
    Grants.Template grants = Grants.template(template).refusing(ChatMemory.DEFAULT_CONVERSATION_ID,
        "it is Spring AI's ChatMemory.DEFAULT_CONVERSATION_ID, which every request without a conversation id "
            + "shares; set ChatMemory.CONVERSATION_ID for each user or conversation");
    return key -> grants.grants(Objects.requireNonNull(key, "key"));
  }
}

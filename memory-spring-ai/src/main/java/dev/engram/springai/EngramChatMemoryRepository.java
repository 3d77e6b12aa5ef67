/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryException;
import dev.engram.agent.ConversationLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

/**
 * Spring AI chat memory kept as Engram captured sources: the conversation id is the source session,
 * each message one captured record in the first grant's scope, so {@link Engram#flush} can turn the
 * conversations into cited long-term memories. Use it under a {@code MessageWindowChatMemory}
 * ({@code MessageWindowChatMemory.builder().chatMemoryRepository(repository).build()}).
 *
 * <p>{@link #saveAll} replaces a conversation's messages, as the contract says, over sources that are
 * never edited: the messages of the new list that are in the current window are not captured again,
 * new ones are appended, and the records carry which of them form the window (see
 * {@link ConversationLog}). Messages that left the window stay captured, for flush and evidence;
 * {@link #deleteByConversationId} erases them. Messages come back as they were saved: text exactly,
 * tool calls, tool responses and media (URL or bytes) in full, metadata values in their JSON form.
 *
 * <p>Grants come from trusted code: {@link #fromConversationId(Engram, GrantsResolver)} maps each
 * conversation id to its grants (as {@link EngramMemoryAdvisor} does), {@link #of(Engram, Supplier)}
 * asks a supplier on every call (e.g. the current user's security context), and only then can the
 * repository list conversations. Conversation ids are in the id alphabet of
 * {@link Grants#template(String)} ({@value Grants.Template#ID_ALPHABET}); others are refused with an
 * {@link InvalidInputException}.
 */
public final class EngramChatMemoryRepository implements ChatMemoryRepository {
  private static final Logger LOG = LoggerFactory.getLogger(EngramChatMemoryRepository.class);

  private final ConversationLog log;
  private final Function<String, Grants> grants;
  private final @Nullable Supplier<Grants> listing;

  private EngramChatMemoryRepository(Engram engram, Function<String, Grants> grants, @Nullable Supplier<Grants> listing) {
    this.log = ConversationLog.of(engram);
    this.grants = grants;
    this.listing = listing;
  }

  /**
   * A repository whose conversations live under the grants a supplier returns on every call.
   *
   * @param engram the engine (its store must declare {@code SOURCES})
   * @param grants trusted code that returns the current caller's grants
   * @return the repository
   * @throws NullPointerException if {@code engram} or {@code grants} is null
   */
  public static EngramChatMemoryRepository of(Engram engram, Supplier<Grants> grants) {
    Objects.requireNonNull(engram, "engram");
    Objects.requireNonNull(grants, "grants");
    Supplier<Grants> checked = () -> Objects.requireNonNull(grants.get(), "grants supplied");
    return new EngramChatMemoryRepository(engram, id -> checked.get(), checked);
  }

  /**
   * A repository that maps each conversation id to its grants. It cannot list conversations (no
   * grants see them all): {@link #findConversationIds()} fails.
   *
   * @param engram the engine (its store must declare {@code SOURCES})
   * @param resolver trusted code that maps a conversation id to grants
   * @return the repository
   * @throws NullPointerException if {@code engram} or {@code resolver} is null
   */
  public static EngramChatMemoryRepository fromConversationId(Engram engram, GrantsResolver resolver) {
    Objects.requireNonNull(engram, "engram");
    Objects.requireNonNull(resolver, "resolver");
    return new EngramChatMemoryRepository(engram, resolver::resolve, null);
  }

  /**
   * The conversations under the supplier's grants, in the order they began.
   *
   * @return the ids
   * @throws CapabilityNotSupportedException for a repository made with {@link #fromConversationId}
   */
  @Override
  public List<String> findConversationIds() {
    if (listing == null) {
      throw new CapabilityNotSupportedException("findConversationIds needs one set of grants to list in; this "
          + "repository maps each conversation id to its own grants (build it with EngramChatMemoryRepository.of)");
    }
    ConversationLog.Conversations found = log.conversations(listing.get());
    if (!found.complete()) {
      LOG.warn("findConversationIds: only the conversations of the first records of the scope are listed");
    }
    return new ArrayList<>(found.ids());
  }

  /**
   * The conversation's current messages, oldest first; empty when there are none.
   *
   * @param conversationId the conversation
   * @return the messages as saved
   * @throws InvalidInputException if the id is blank or not in the id alphabet
   */
  @Override
  public List<Message> findByConversationId(String conversationId) {
    String id = checkId(conversationId);
    List<Message> out = new ArrayList<>();
    for (ConversationLog.Turn t : log.read(grants.apply(id), id)) {
      out.add(MessageCodec.decode(t));
    }
    return out;
  }

  /**
   * Replaces the conversation's messages with {@code messages} (see the class description for how
   * that maps onto captured sources). Every message is checked before anything is captured.
   *
   * @param conversationId the conversation
   * @param messages the whole new list, oldest first
   * @throws InvalidInputException if the id is not in the id alphabet, or a message cannot be kept (names it)
   * @throws MemoryException with {@link ErrorCode#REVISION_CONFLICT} when another save of the same
   *     conversation ran at the same time
   * @throws NullPointerException if {@code messages} is null
   */
  @Override
  public void saveAll(String conversationId, List<Message> messages) {
    String id = checkId(conversationId);
    Objects.requireNonNull(messages, "messages");
    List<ConversationLog.Turn> turns = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      Message m = messages.get(i);
      if (m == null) {
        throw new InvalidInputException("messages[" + i + "]", "is null");
      }
      turns.add(MessageCodec.encode(m, i));
    }
    log.replace(grants.apply(id), id, turns);
  }

  /**
   * Erases every message captured for the conversation, in and out of the window.
   *
   * @param conversationId the conversation
   */
  @Override
  public void deleteByConversationId(String conversationId) {
    String id = checkId(conversationId);
    log.delete(grants.apply(id), id);
  }

  private static String checkId(@Nullable String conversationId) {
    if (conversationId == null || conversationId.isBlank()) {
      throw new InvalidInputException("conversationId", "is null or blank");
    }
    return conversationId;
  }
}

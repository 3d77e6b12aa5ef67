/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.langchain4j;

import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.InvalidInputException;
import dev.engram.MemoryException;
import dev.engram.agent.ConversationLog;
import dev.engram.agent.ConversationLog.Turn;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * LangChain4j chat memory kept as Engram captured sources: the chat memory id ({@code @MemoryId}) is
 * the source session, each message one captured record in the first grant of that id, so
 * {@link Engram#flush} can turn the conversations into cited long-term memories. Use it under a
 * window memory: {@code MessageWindowChatMemory.builder().id(id).maxMessages(20).chatMemoryStore(store).build()}.
 *
 * <p>{@link #updateMessages} replaces the conversation's messages over sources that are never edited:
 * the messages already in the current window are not captured again, new ones are appended, and the
 * records carry which of them form the window (see {@link ConversationLog}); messages that left the
 * window stay captured for flush and evidence, and {@link #deleteMessages} erases them. Message types
 * are kept: a text-only user message (no name, no attributes), a system message and a text-only AI
 * message are stored as their text (speaker {@code user}, {@code system}, {@code assistant}); every
 * other message (tool execution requests and results, images, thinking, names, attributes, custom
 * messages) is stored as LangChain4j's own JSON form of it ({@code chat.format=langchain4j.message.v1}).
 * Text reads back exactly.
 *
 * <p>Grants come from trusted code mapping the memory id ({@link MemoryIdGrants}); LangChain4j's shared
 * {@code default} id is refused by {@link MemoryIdGrants#template(String)}. Memory ids are in the id
 * alphabet of {@link dev.engram.Grants#template(String)}
 * ({@value dev.engram.Grants.Template#ID_ALPHABET}); others are refused with an
 * {@link InvalidInputException}.
 */
public final class EngramChatMemoryStore implements ChatMemoryStore {
  static final String FORMAT = "langchain4j.message.v1";

  private final ConversationLog log;
  private final MemoryIdGrants grants;

  /**
   * A store over an engine whose store declares {@code SOURCES}.
   *
   * @param engram the engine
   * @param grants trusted code that maps a memory id to grants
   * @throws NullPointerException if {@code engram} or {@code grants} is null
   */
  public EngramChatMemoryStore(Engram engram, MemoryIdGrants grants) {
    this.log = ConversationLog.of(Objects.requireNonNull(engram, "engram"));
    this.grants = Objects.requireNonNull(grants, "grants");
  }

  /**
   * The conversation's current messages, oldest first; empty when there are none.
   *
   * @param memoryId the chat memory id
   * @return the messages as stored
   * @throws InvalidInputException if the id maps to no grants or is not in the id alphabet
   */
  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    String id = idOf(memoryId);
    List<ChatMessage> out = new ArrayList<>();
    for (Turn t : log.read(grants.resolve(memoryId), id)) {
      out.add(decode(t));
    }
    return out;
  }

  /**
   * Makes {@code messages} the conversation's messages (see the class description). Every message is
   * checked before anything is captured.
   *
   * @param memoryId the chat memory id
   * @param messages the whole new list, oldest first
   * @throws InvalidInputException if the id cannot be used, or a message cannot be kept (names it)
   * @throws MemoryException with {@link ErrorCode#REVISION_CONFLICT} when another update of the same
   *     conversation ran at the same time
   * @throws NullPointerException if {@code messages} is null
   */
  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    String id = idOf(memoryId);
    Objects.requireNonNull(messages, "messages");
    List<Turn> turns = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage m = messages.get(i);
      if (m == null) {
        throw new InvalidInputException("messages[" + i + "]", "is null");
      }
      turns.add(encode(m));
    }
    log.replace(grants.resolve(memoryId), id, turns);
  }

  /**
   * Erases every message captured for the conversation, in and out of the window.
   *
   * @param memoryId the chat memory id
   */
  @Override
  public void deleteMessages(Object memoryId) {
    String id = idOf(memoryId);
    log.delete(grants.resolve(memoryId), id);
  }

  private static String idOf(Object memoryId) {
    return Objects.requireNonNull(memoryId, "memoryId").toString();
  }

  static Turn encode(ChatMessage m) {
    if (m instanceof SystemMessage s && !s.text().isEmpty()) {
      return Turn.of("system", s.text());
    }
    if (m instanceof UserMessage u && u.hasSingleText() && u.name() == null && u.attributes().isEmpty()
        && !u.singleText().isEmpty()) {
      return Turn.of("user", u.singleText());
    }
    if (m instanceof AiMessage a && a.text() != null && !a.text().isEmpty() && a.thinking() == null
        && !a.hasToolExecutionRequests() && a.images().isEmpty() && a.attributes().isEmpty()) {
      return Turn.of("assistant", a.text());
    }
    String role = switch (m.type()) {
      case SYSTEM -> "system";
      case USER -> "user";
      case AI -> "assistant";
      case TOOL_EXECUTION_RESULT -> "tool";
      default -> m.type().name().toLowerCase(java.util.Locale.ROOT);
    };
    return new Turn(role, ChatMessageSerializer.messageToJson(m), FORMAT);
  }

  static ChatMessage decode(Turn t) {
    if (t.format() == null) {
      return switch (t.role()) {
        case "system" -> SystemMessage.from(t.text());
        case "user" -> UserMessage.from(t.text());
        case "assistant" -> AiMessage.from(t.text());
        default -> throw unreadable("a plain turn of role " + t.role());
      };
    }
    if (!t.format().equals(FORMAT)) {
      throw unreadable("a turn in format " + t.format());
    }
    try {
      return ChatMessageDeserializer.messageFromJson(t.text());
    } catch (RuntimeException e) {
      throw unreadable("a turn that is not a LangChain4j message");
    }
  }

  private static MemoryException unreadable(String what) {
    return new MemoryException(ErrorCode.INVALID_INPUT, "the conversation holds " + what
        + ", which is no LangChain4j message this store wrote");
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples.langchain4j;

import dev.engram.Engram;
import dev.engram.agent.MemoryResource;
import dev.engram.langchain4j.EngramChatMemoryStore;
import dev.engram.langchain4j.EngramContentRetriever;
import dev.engram.langchain4j.EngramToolProvider;
import dev.engram.langchain4j.MemoryIdGrants;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A LangChain4j AI service whose model remembers through Engram: the memory tools come from an
 * {@link EngramToolProvider} and remembered context from an {@link EngramContentRetriever}, both
 * under the grants of the {@code @MemoryId} (the user); the conversation itself is kept as Engram
 * captured sources by an {@link EngramChatMemoryStore}. Two users share one assistant; neither ever
 * sees the other's memory.
 *
 * <p>Run: {@code mvn -q -pl memory-examples-langchain4j -am package -DskipTests exec:java} (in memory), or with
 * {@code -Dexec.args=memory.db} to keep the memory in a SQLite file.
 */
public final class LangChain4jAssistant {
  /** The AI service: one method, the user's id as the memory id. */
  interface Assistant {
    String chat(@MemoryId String user, @UserMessage String message);
  }

  private LangChain4jAssistant() {}

  /**
   * Builds the assistant over {@code engram} and runs two users' conversations.
   *
   * @param engram the memory
   * @param model the chat model
   * @return the transcript lines
   */
  public static List<String> run(Engram engram, ChatModel model) {
    MemoryIdGrants grants = MemoryIdGrants.template("app/user/{id}");
    Assistant assistant = AiServices.builder(Assistant.class)
        .chatModel(model)
        .toolProvider(new EngramToolProvider(MemoryResource.builder(engram).build(), grants))
        .contentRetriever(EngramContentRetriever.builder(engram).grants(grants).maxBytes(2000).build())
        .chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(20)
            .chatMemoryStore(new EngramChatMemoryStore(engram, grants)).build())
        .build();
    List<String> transcript = new ArrayList<>();
    for (String[] turn : new String[][] {
        {"alice", "Remember: my dentist appointment is on Friday at 9."},
        {"bob", "When is my dentist appointment?"},
        {"alice", "When is my dentist appointment?"}}) {
      transcript.add(turn[0] + "> " + turn[1]);
      transcript.add("assistant> " + assistant.chat(turn[0], turn[1]));
    }
    return transcript;
  }

  /**
   * Runs the example and prints the transcript.
   *
   * @param args optionally a SQLite file to keep the memory in
   */
  public static void main(String[] args) {
    MemoryStore store = args.length > 0 ? new SqliteMemoryStore(Path.of(args[0])) : new InMemoryMemoryStore();
    try (Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      run(engram, new RuleBasedChatModel()).forEach(System.out::println);
    }
  }
}

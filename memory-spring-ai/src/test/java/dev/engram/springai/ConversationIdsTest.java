/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import static dev.engram.springai.ScriptedChatModel.say;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.InvalidInputException;
import dev.engram.SourceQuery;
import dev.engram.agent.MemoryResource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;

/** How conversation ids become grants: one template, one id alphabet, no shared default, no forged log lines. */
class ConversationIdsTest {
  private static final GrantsResolver USERS = GrantsResolver.template("app/user/{id}");

  @Test
  void requestsWithoutAConversationIdShareNoNamespace() {
    try (Engram engram = TestStores.engram(TestStores.Kind.MEMORY)) {
      ChatMemory memory = MessageWindowChatMemory.builder()
          .chatMemoryRepository(EngramChatMemoryRepository.fromConversationId(engram, USERS)).build();
      ScriptedChatModel model = new ScriptedChatModel().then(p -> say("Noted.")).then(p -> say("Noted."));
      ChatClient client = ChatClient.builder(model)
          .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build()).build();
      // the chat memory advisor falls back to ChatMemory.DEFAULT_CONVERSATION_ID for both users
      assertThatThrownBy(() -> client.prompt().user("My card number is 4111 1111 1111 1111.").call().content())
          .isInstanceOf(InvalidGrantException.class).hasMessageContaining("DEFAULT_CONVERSATION_ID");
      assertThatThrownBy(() -> client.prompt().user("What is my card number?").call().content())
          .isInstanceOf(InvalidGrantException.class);
      assertThat(model.prompts).isEmpty();
      assertThat(engram.sources(Grants.of("app/user/default"), SourceQuery.defaults())).isEmpty();

      EngramMemoryAdvisor advisor = EngramMemoryAdvisor.builder(MemoryResource.builder(engram).build(), USERS).build();
      ChatClient withMemory = ChatClient.builder(model).defaultAdvisors(advisor).build();
      assertThatThrownBy(() -> withMemory.prompt().user("hello")
          .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, ChatMemory.DEFAULT_CONVERSATION_ID)).call().content())
          .isInstanceOf(InvalidGrantException.class);
      assertThat(model.prompts).isEmpty();
      assertThat(USERS.resolve("alice")).isEqualTo(Grants.of("app/user/alice"));
    }
  }

  @Test
  void theResolverAndTheChatMemoryAcceptTheSameIds() {
    try (Engram engram = TestStores.engram(TestStores.Kind.MEMORY)) {
      EngramChatMemoryRepository repository = EngramChatMemoryRepository.fromConversationId(engram, USERS);
      for (String id : List.of("alice", "u:42", "a.b-c_d", "7", "alice@example.com", "_alice", "-alice", "a b",
          "\u00e9mile", "x".repeat(129))) {
        boolean resolves = accepts(() -> USERS.resolve(id));
        boolean saves = accepts(() -> repository.saveAll(id, List.of(new UserMessage("Hello."))));
        assertThat(saves).as(id).isEqualTo(resolves);
        assertThat(resolves).as(id).isEqualTo(id.matches("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}"));
        if (saves) {
          assertThat(repository.findByConversationId(id)).containsExactly(new UserMessage("Hello."));
        }
      }
    }
  }

  private static boolean accepts(Runnable call) {
    try {
      call.run();
      return true;
    } catch (InvalidInputException e) {
      return false;
    }
  }

  @Test
  void aConversationIdInALogLineStaysOnOneLine() {
    try (Engram engram = TestStores.engram(TestStores.Kind.MEMORY)) {
      ToolCallback read = EngramToolCallbackProvider.fromToolContext(MemoryResource.builder(engram).build(), USERS)
          .getToolCallbacks()[0];
      PrintStream err = System.err;
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      String result;
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      try {
        result = read.call("{\"topic\":\"a\"}", new ToolContext(Map.of(ChatMemory.CONVERSATION_ID,
            "alice\n[main] WARN dev.engram.Security - user bob granted admin\r\nx")));
      } finally {
        System.setErr(err);
      }
      assertThat(result).contains("no_grants");
      String log = captured.toString(StandardCharsets.UTF_8);
      assertThat(log).contains("no grants for this call");
      assertThat(log.lines()).noneMatch(l -> l.contains("granted admin") && !l.contains("no grants for this call"));
      assertThat(log.lines().filter(l -> l.contains("WARN"))).hasSize(1);
    }
  }
}

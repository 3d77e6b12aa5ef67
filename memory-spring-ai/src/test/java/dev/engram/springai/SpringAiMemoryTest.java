/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import static dev.engram.springai.ScriptedChatModel.say;
import static dev.engram.springai.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.WriteOptions;
import dev.engram.agent.MemoryResource;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/** The tools and the advisor in one Spring application context, with a ChatClient and a scripted model. */
class SpringAiMemoryTest {
  private static final int CONTEXT_BYTES = 1500;

  private static String toolResponses(Prompt prompt) {
    return prompt.getInstructions().stream().filter(m -> m instanceof ToolResponseMessage)
        .flatMap(m -> ((ToolResponseMessage) m).getResponses().stream())
        .map(ToolResponseMessage.ToolResponse::responseData).collect(Collectors.joining("\n"));
  }

  private static String system(Prompt prompt) {
    return prompt.getInstructions().stream().filter(m -> m instanceof SystemMessage).map(Message::getText)
        .findFirst().orElse("");
  }

  private static AnnotationConfigApplicationContext context(TestStores.Kind kind, ScriptedChatModel model) {
    AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
    ctx.registerBean(Engram.class, () -> TestStores.engram(kind));
    ctx.registerBean(MemoryResource.class,
        () -> MemoryResource.builder(ctx.getBean(Engram.class)).contextBytes(CONTEXT_BYTES).build());
    ctx.registerBean(GrantsResolver.class, () -> GrantsResolver.template("app/user/{id}"));
    ctx.registerBean(EngramToolCallbackProvider.class, () -> EngramToolCallbackProvider.fromToolContext(
        ctx.getBean(MemoryResource.class), ctx.getBean(GrantsResolver.class)));
    ctx.registerBean(EngramMemoryAdvisor.class, () -> EngramMemoryAdvisor.builder(
        ctx.getBean(MemoryResource.class), ctx.getBean(GrantsResolver.class)).build());
    ctx.registerBean(ChatClient.class, () -> ChatClient.builder(model)
        .defaultToolCallbacks(ctx.getBean(EngramToolCallbackProvider.class))
        .defaultAdvisors(ctx.getBean(EngramMemoryAdvisor.class)).build());
    ctx.refresh();
    return ctx;
  }

  private static String ask(ChatClient client, String user, String message) {
    return client.prompt().user(message).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, user)).call().content();
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY", "SQLITE"})
  void twoUsersInOneContextNeverCrossGrants(TestStores.Kind kind) {
    ScriptedChatModel model = new ScriptedChatModel()
        .then(p -> toolCall("memory_write", "{\"content\":\"Locker code is 4711.\"}"))
        .then(p -> say("Noted."))
        .then(p -> toolCall("memory_search", "{\"query\":\"locker code\"}"))
        .then(p -> say("I don't know your locker code."))
        .then(p -> toolCall("memory_write", "{\"content\":\"Planted tomatoes.\",\"namespace\":\"app/user/alice\"}"))
        .then(p -> say("done"));
    try (AnnotationConfigApplicationContext ctx = context(kind, model)) {
      ChatClient client = ctx.getBean(ChatClient.class);
      Engram engram = ctx.getBean(Engram.class);

      assertThat(ask(client, "alice", "My locker code is 4711, remember it.")).isEqualTo("Noted.");
      assertThat(toolResponses(model.prompts.get(1))).contains("\"outcome\"");

      assertThat(ask(client, "bob", "What is my locker code?")).isEqualTo("I don't know your locker code.");
      String bobSaw = toolResponses(model.prompts.get(3)) + system(model.prompts.get(3));
      assertThat(bobSaw).doesNotContain("4711").doesNotContain("alice");

      ask(client, "bob", "I planted tomatoes.");
      assertThat(toolResponses(model.prompts.get(5))).contains("\"error\"");

      assertThat(engram.list(Grants.of("app/user/alice"))).extracting(MemoryEntry::content)
          .containsExactly("Locker code is 4711.");
      assertThat(engram.list(Grants.of("app/user/bob"))).isEmpty();
      assertThat(engram.list(Grants.of("app/user/alice")).get(0).scope()).isEqualTo("app/user/alice");
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY", "SQLITE"})
  void advisorBlockIsBoundedAndCited(TestStores.Kind kind) {
    ScriptedChatModel model = new ScriptedChatModel().then(p -> say("Water them in the morning."));
    try (AnnotationConfigApplicationContext ctx = context(kind, model)) {
      Engram engram = ctx.getBean(Engram.class);
      Grants alice = Grants.of("app/user/alice");
      for (int i = 0; i < 60; i++) {
        engram.write(alice, "Garden note " + i + ": the tomato bed " + i + " needs water and compost every week.",
            WriteOptions.builder().topicsHint("garden").build());
      }
      engram.write(Grants.of("app/user/bob"), "Garden secret of bob: the roses need water.", WriteOptions.defaults());

      ask(ctx.getBean(ChatClient.class), "alice", "How often does the tomato bed need water?");

      String block = system(model.prompts.get(0));
      assertThat(block).contains("untrusted remembered data").contains("tomato bed");
      assertThat(block.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThan(CONTEXT_BYTES + 1200);
      assertThat(block).contains("app/user/alice#").contains("Refs of the items above");
      assertThat(block).doesNotContain("roses").doesNotContain("app/user/bob");
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY"})
  void aLongUserMessageIsClippedForRecallInsteadOfFailing(TestStores.Kind kind) {
    ScriptedChatModel model = new ScriptedChatModel().then(p -> say("Every morning."));
    try (AnnotationConfigApplicationContext ctx = context(kind, model)) {
      ctx.getBean(Engram.class).write(Grants.of("app/user/alice"), "The tomato bed needs water every morning.",
          WriteOptions.defaults());
      String message = "When does the tomato bed need water? " + "Here is my whole garden diary. ".repeat(330);
      assertThat(message.length()).isGreaterThan(10_000);
      assertThat(ask(ctx.getBean(ChatClient.class), "alice", message)).isEqualTo("Every morning.");
      assertThat(system(model.prompts.get(0))).contains("tomato bed needs water").contains("cite app/user/alice#");
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY"})
  void grantsAreNeverGuessed(TestStores.Kind kind) {
    ScriptedChatModel model = new ScriptedChatModel();
    try (AnnotationConfigApplicationContext ctx = context(kind, model)) {
      ChatClient client = ctx.getBean(ChatClient.class);
      assertThatThrownBy(() -> client.prompt().user("hello").call().content())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining(ChatMemory.CONVERSATION_ID);
      assertThatThrownBy(() -> ask(client, "../bob", "hello")).isInstanceOf(InvalidInputException.class);
      assertThat(model.prompts).isEmpty();

      EngramToolCallbackProvider tools = ctx.getBean(EngramToolCallbackProvider.class);
      assertThat(tools.getToolCallbacks()).extracting(t -> t.getToolDefinition().name())
          .containsExactly("memory_read", "memory_search", "memory_write", "memory_correct", "memory_forget", "memory_boot",
            "memory_record_outcome", "memory_get", "memory_browse", "memory_domains", "memory_write_path", "memory_update",
            "memory_glossary_add", "memory_glossary_remove", "memory_move", "memory_capture");
      String noContext = tools.getToolCallbacks()[0].call("{}");
      assertThat(noContext).contains("\"error\"").contains("no_grants");
      assertThat(ctx.getBean(Engram.class).list(Grants.of("app"))).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY"})
  void supplierGrantsAreAskedOnEveryCall(TestStores.Kind kind) {
    try (Engram engram = TestStores.engram(kind)) {
      String[] user = {"alice"};
      EngramToolCallbackProvider tools = EngramToolCallbackProvider.of(
          MemoryResource.builder(engram).build(), () -> Grants.of("app/user/" + user[0]));
      var write = java.util.Arrays.stream(tools.getToolCallbacks())
          .filter(t -> t.getToolDefinition().name().equals("memory_write")).findFirst().orElseThrow();
      write.call("{\"content\":\"Alice likes tea.\"}");
      user[0] = "bob";
      write.call("{\"content\":\"Bob likes coffee.\"}");
      assertThat(engram.list(Grants.of("app/user/alice"))).extracting(MemoryEntry::content).containsExactly("Alice likes tea.");
      assertThat(engram.list(Grants.of("app/user/bob"))).extracting(MemoryEntry::content).containsExactly("Bob likes coffee.");
      assertThat(tools.getToolCallbacks()[0].getToolDefinition().inputSchema()).contains("\"additionalProperties\":false");

      engram.write(Grants.of("app/user/alice"), "Answer in metric units.", WriteOptions.builder().path("preferences://user").build());
      var boot = java.util.Arrays.stream(tools.getToolCallbacks())
          .filter(t -> t.getToolDefinition().name().equals("memory_boot")).findFirst().orElseThrow();
      assertThat(boot.call("{}")).doesNotContain("metric").contains("\"nodes\":[]");
      user[0] = "alice";
      assertThat(boot.call("{\"client\":\"codex\"}")).contains("preferences://user").contains("Answer in metric units.");
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.langchain4j;

import static dev.engram.langchain4j.ScriptedChatModel.say;
import static dev.engram.langchain4j.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.WriteOptions;
import dev.engram.agent.MemoryResource;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Metadata;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LangChain4jMemoryTest {
  interface Assistant {
    String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
  }

  interface SharedAssistant {
    String chat(String message);
  }

  private static Engram engram(String kind) throws IOException {
    MemoryStore store = kind.equals("sqlite")
        ? new SqliteMemoryStore(Files.createTempDirectory("engram-lc4j").resolve("memory.db"))
        : new InMemoryMemoryStore();
    return Engram.builder().store(store).reasoner(new DeterministicReasoner()).build();
  }

  private static String toolResults(ChatRequest request) {
    return request.messages().stream().filter(m -> m instanceof ToolExecutionResultMessage)
        .map(m -> ((ToolExecutionResultMessage) m).text()).collect(Collectors.joining("\n"));
  }

  private static String lastUserText(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof UserMessage u) {
        return u.singleText();
      }
    }
    return "";
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void toolsLandUnderTheMemoryIdsGrantsAndNeverAcross(String kind) throws IOException {
    try (Engram engram = engram(kind)) {
      EngramToolProvider tools = new EngramToolProvider(MemoryResource.builder(engram).build(),
          MemoryIdGrants.template("app/user/{id}"));
      ScriptedChatModel model = new ScriptedChatModel()
          .then(r -> toolCall("memory_write", "{\"content\":\"Locker code is 4711.\"}"))
          .then(r -> say("Noted."))
          .then(r -> toolCall("memory_search", "{\"query\":\"locker code\"}"))
          .then(r -> say("I don't know it."))
          .then(r -> toolCall("memory_write", "{\"content\":\"x\",\"scope\":\"app/user/alice\"}"))
          .then(r -> say("done"));
      Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).toolProvider(tools)
          .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20)).build();

      assertThat(assistant.chat("alice", "My locker code is 4711.")).isEqualTo("Noted.");
      assertThat(model.requests.get(0).toolSpecifications()).extracting(s -> s.name())
          .containsExactly("memory_read", "memory_search", "memory_write", "memory_correct", "memory_forget", "memory_boot",
            "memory_record_outcome", "memory_get", "memory_browse", "memory_domains", "memory_write_path", "memory_update",
            "memory_glossary_add", "memory_glossary_remove", "memory_move", "memory_capture");
      assertThat(assistant.chat("bob", "What is my locker code?")).isEqualTo("I don't know it.");
      assertThat(toolResults(model.requests.get(3))).doesNotContain("4711").doesNotContain("alice");
      assistant.chat("bob", "Note something.");
      assertThat(toolResults(model.requests.get(5))).contains("\"error\"");

      assertThat(engram.list(Grants.of("app/user/alice"))).extracting(MemoryEntry::content)
          .containsExactly("Locker code is 4711.");
      assertThat(engram.list(Grants.of("app/user/bob"))).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory"})
  void bootLoadsTheMemoryIdsBootNodes(String kind) throws IOException {
    try (Engram engram = engram(kind)) {
      engram.write(Grants.of("app/user/alice"), "Answer in metric units.", WriteOptions.builder().path("preferences://user").build());
      engram.write(Grants.of("app/user/bob"), "Answer in imperial units.", WriteOptions.builder().path("preferences://user").build());
      EngramToolProvider tools = new EngramToolProvider(MemoryResource.builder(engram).build(),
          MemoryIdGrants.template("app/user/{id}"));
      ScriptedChatModel model = new ScriptedChatModel()
          .then(r -> toolCall("memory_boot", "{\"client\":\"opencode\"}"))
          .then(r -> say("Loaded."));
      Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).toolProvider(tools)
          .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20)).build();
      assertThat(assistant.chat("alice", "Start.")).isEqualTo("Loaded.");
      assertThat(toolResults(model.requests.get(1))).contains("\"client\":\"opencode\"")
          .contains("Answer in metric units.").doesNotContain("imperial");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void retrieverContentsCarryCitations(String kind) throws IOException {
    try (Engram engram = engram(kind)) {
      Grants alice = Grants.of("app/user/alice");
      MemoryEntry tomato = engram.write(alice, "The tomato bed needs water every morning.", WriteOptions.defaults()).entry();
      engram.write(Grants.of("app/user/bob"), "The tomato plants of bob are in pots.", WriteOptions.defaults());
      Query query = Query.from("tomato water", Metadata.from(UserMessage.from("tomato water"), "alice", List.of()));

      EngramContentRetriever hits = EngramContentRetriever.builder(engram)
          .grants(MemoryIdGrants.template("app/user/{id}")).shape(EngramContentRetriever.Shape.SEARCH_HITS).build();
      List<Content> found = hits.retrieve(query);
      assertThat(found).hasSize(1);
      Content c = found.get(0);
      assertThat(c.textSegment().text()).isEqualTo("The tomato bed needs water every morning.");
      assertThat(c.textSegment().metadata().getString(EngramContentRetriever.CITATION_KEY))
          .isEqualTo(tomato.citation().render());
      assertThat(c.textSegment().metadata().getString(EngramContentRetriever.ENTRY_ID_KEY)).isEqualTo(tomato.entryId());
      assertThat(c.textSegment().metadata().getLong(EngramContentRetriever.REVISION_KEY)).isEqualTo(tomato.createdInRevision());
      assertThat(c.metadata()).containsKey(ContentMetadata.SCORE);

      EngramContentRetriever context = EngramContentRetriever.builder(engram)
          .grants(MemoryIdGrants.template("app/user/{id}")).maxBytes(1024).build();
      Content block = context.retrieve(query).get(0);
      assertThat(block.textSegment().text()).contains("tomato bed").doesNotContain("pots");
      assertThat(block.textSegment().text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1024);
      assertThat(block.textSegment().metadata().getString(EngramContentRetriever.CITATIONS_KEY))
          .isEqualTo(tomato.citation().render());

      // through an AI service: the retrieved, cited block reaches the model with the user's message
      ScriptedChatModel model = new ScriptedChatModel().then(r -> say("Every morning."));
      Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).contentRetriever(context)
          .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20)).build();
      assertThat(assistant.chat("alice", "When does the tomato bed need water?")).isEqualTo("Every morning.");
      assertThat(lastUserText(model.requests.get(0))).contains("tomato bed needs water").contains(tomato.entryId());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory"})
  void aLongUserMessageIsClippedForRecallInsteadOfFailing(String kind) throws IOException {
    try (Engram engram = engram(kind)) {
      Grants alice = Grants.of("app/user/alice");
      engram.write(alice, "The tomato bed needs water every morning.", WriteOptions.defaults());
      String message = "When does the tomato bed need water? " + "Here is my whole garden diary. ".repeat(330);
      assertThat(message.length()).isGreaterThan(10_000);
      for (EngramContentRetriever.Shape shape : EngramContentRetriever.Shape.values()) {
        EngramContentRetriever retriever = EngramContentRetriever.builder(engram)
            .grants(MemoryIdGrants.template("app/user/{id}")).shape(shape).build();
        List<Content> found = retriever.retrieve(Query.from(message, Metadata.from(UserMessage.from(message), "alice", List.of())));
        assertThat(found).as(shape.name()).isNotEmpty();
        assertThat(found.get(0).textSegment().text()).as(shape.name()).contains("tomato bed needs water");
      }
      // through an AI service: the call succeeds and the model gets the whole message
      EngramContentRetriever context = EngramContentRetriever.builder(engram)
          .grants(MemoryIdGrants.template("app/user/{id}")).build();
      ScriptedChatModel model = new ScriptedChatModel().then(r -> say("Every morning."));
      Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).contentRetriever(context)
          .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20)).build();
      assertThat(assistant.chat("alice", message)).isEqualTo("Every morning.");
      assertThat(lastUserText(model.requests.get(0))).contains(message).contains("tomato bed needs water");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory"})
  void aSharedDefaultMemoryIdIsRefused(String kind) throws IOException {
    try (Engram engram = engram(kind)) {
      EngramToolProvider tools = new EngramToolProvider(MemoryResource.builder(engram).build(),
          MemoryIdGrants.template("app/user/{id}"));
      ScriptedChatModel model = new ScriptedChatModel().then(r -> say("hi"));
      SharedAssistant shared = AiServices.builder(SharedAssistant.class).chatModel(model).toolProvider(tools).build();
      assertThatThrownBy(() -> shared.chat("hello")).isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("@MemoryId");
      assertThat(model.requests).isEmpty();
      assertThatThrownBy(() -> MemoryIdGrants.template("app/user/{id}").resolve("a/../b"))
          .isInstanceOf(InvalidInputException.class);
      assertThatThrownBy(() -> EngramContentRetriever.builder(engram).build()).isInstanceOf(InvalidInputException.class);
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import static dev.engram.springai.ScriptedChatModel.say;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.CapturedSource;
import dev.engram.Engram;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.SourceQuery;
import dev.engram.agent.MemoryResource;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeTypeUtils;

/** {@link EngramChatMemoryRepository} on every store: the ChatMemoryRepository contract over captured sources. */
class EngramChatMemoryRepositoryTest {
  private static final GrantsResolver USERS = GrantsResolver.template("app/user/{id}");

  private static List<Message> everyKind() {
    return List.of(
        new SystemMessage("You are a careful gardener."),
        new UserMessage("Which beds need water?"),
        UserMessage.builder().text("Look at this photo:\n    indented  twice")
            .media(Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new byte[] {1, 2, 3}).name("bed").build(),
                new Media(MimeTypeUtils.IMAGE_JPEG, URI.create("https://example.org/bed.jpg")))
            .metadata(Map.of("lang", "en", "turn", 3)).build(),
        AssistantMessage.builder().content("")
            .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", "memory_search", "{\"query\":\"beds\"}")))
            .properties(Map.of("finishReason", "TOOL_CALLS")).build(),
        ToolResponseMessage.builder().responses(List.of(
            new ToolResponseMessage.ToolResponse("call-1", "memory_search", "{\"results\":[]}"))).build(),
        new AssistantMessage("The tomato bed, every morning. Ünïcödé e\u0301 and 😀."));
  }

  @ParameterizedTest
  @EnumSource(TestStores.Kind.class)
  void savedMessagesComeBackAsTheyWereAndSaveAllReplaces(TestStores.Kind kind) {
    try (Engram engram = TestStores.engram(kind)) {
      EngramChatMemoryRepository repository = EngramChatMemoryRepository.fromConversationId(engram, USERS);
      List<Message> saved = everyKind();
      repository.saveAll("alice", saved);
      List<Message> found = repository.findByConversationId("alice");
      assertThat(found).hasSize(saved.size());
      assertThat(found.get(0)).isEqualTo(saved.get(0));
      assertThat(found.get(1)).isEqualTo(saved.get(1));
      UserMessage photo = (UserMessage) found.get(2);
      assertThat(photo.getText()).isEqualTo("Look at this photo:\n    indented  twice");
      assertThat(photo.getMetadata()).containsEntry("lang", "en").containsEntry("turn", 3)
          .containsEntry("messageType", MessageType.USER);
      assertThat(photo.getMedia()).hasSize(2);
      assertThat(photo.getMedia().get(0).getDataAsByteArray()).containsExactly(1, 2, 3);
      assertThat(photo.getMedia().get(0).getMimeType()).isEqualTo(MimeTypeUtils.IMAGE_PNG);
      assertThat(photo.getMedia().get(0).getName()).isEqualTo("bed");
      assertThat(photo.getMedia().get(1).getData()).isEqualTo("https://example.org/bed.jpg");
      assertThat(found.get(3)).isEqualTo(saved.get(3));
      assertThat(((AssistantMessage) found.get(3)).getToolCalls()).extracting(AssistantMessage.ToolCall::name)
          .containsExactly("memory_search");
      assertThat(found.get(4)).isEqualTo(saved.get(4));
      assertThat(found.get(5)).isEqualTo(saved.get(5));

      // replace: the contract's semantics, and nothing captured is lost
      repository.saveAll("alice", List.of(new UserMessage("A new start.")));
      assertThat(repository.findByConversationId("alice")).containsExactly(new UserMessage("A new start."));
      List<CapturedSource> sources = engram.sources(Grants.of("app/user/alice"), SourceQuery.session("alice"));
      assertThat(sources).hasSize(saved.size() + 1);
      assertThat(sources.get(1).speaker()).isEqualTo("user");
      assertThat(sources.get(1).text()).isEqualTo("Which beds need water?");
      repository.saveAll("alice", List.of());
      assertThat(repository.findByConversationId("alice")).isEmpty();

      assertThat(repository.findByConversationId("bob")).isEmpty();
      repository.saveAll("bob", List.of(new UserMessage("Bob's own.")));
      repository.deleteByConversationId("alice");
      assertThat(repository.findByConversationId("alice")).isEmpty();
      assertThat(engram.sources(Grants.of("app/user/alice"), SourceQuery.session("alice"))).isEmpty();
      assertThat(repository.findByConversationId("bob")).containsExactly(new UserMessage("Bob's own."));
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY", "SQLITE"})
  void aWindowChatMemoryOverTheRepositoryKeepsTheConversationAndFlushTurnsItIntoMemories(TestStores.Kind kind) {
    try (Engram engram = TestStores.engram(kind)) {
      EngramChatMemoryRepository repository = EngramChatMemoryRepository.fromConversationId(engram, USERS);
      ChatMemory chatMemory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(4).build();
      ScriptedChatModel model = new ScriptedChatModel()
          .then(p -> say("Noted, Lisbon."))
          .then(p -> say("You moved to Lisbon."))
          .then(p -> say("Fine."));
      ChatClient client = ChatClient.builder(model).defaultSystem("Be brief.")
          .defaultAdvisors(MessageChatMemoryAdvisor.builder(chatMemory).build()).build();
      for (String message : List.of("I moved to Lisbon in May.", "Where do I live?", "Thanks.")) {
        client.prompt().user(message).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "alice")).call().content();
      }
      // the second request saw the first exchange, read back from the captured sources
      assertThat(model.prompts.get(1).getInstructions()).extracting(Message::getText)
          .contains("I moved to Lisbon in May.", "Noted, Lisbon.", "Where do I live?");
      assertThat(repository.findByConversationId("alice")).extracting(Message::getText)
          .containsExactly("Where do I live?", "You moved to Lisbon.", "Thanks.", "Fine.");
      Grants alice = Grants.of("app/user/alice");
      assertThat(engram.sources(alice, SourceQuery.session("alice"))).extracting(CapturedSource::text)
          .containsExactly("I moved to Lisbon in May.", "Noted, Lisbon.", "Where do I live?", "You moved to Lisbon.",
              "Thanks.", "Fine.");

      FlushReport report = engram.flush(alice);
      assertThat(report.appended()).isGreaterThan(0);
      MemoryEntry lisbon = engram.list(alice).stream().filter(e -> e.content().contains("I moved to Lisbon"))
          .findFirst().orElseThrow();
      assertThat(engram.evidence(alice, lisbon.entryId())).extracting(CapturedSource::text)
          .contains("I moved to Lisbon in May.");
      assertThat(engram.list(Grants.of("app/user/bob"))).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY"})
  void listingNeedsOneSetOfGrantsAndBadInputChangesNothing(TestStores.Kind kind) {
    try (Engram engram = TestStores.engram(kind)) {
      String[] user = {"alice"};
      EngramChatMemoryRepository mine = EngramChatMemoryRepository.of(engram, () -> Grants.of("app/user/" + user[0]));
      mine.saveAll("trip", List.of(new UserMessage("Planning a trip.")));
      mine.saveAll("garden", List.of(new UserMessage("Planting tomatoes.")));
      assertThat(mine.findConversationIds()).containsExactly("trip", "garden");
      user[0] = "bob";
      assertThat(mine.findConversationIds()).isEmpty();
      assertThat(mine.findByConversationId("trip")).isEmpty();
      user[0] = "alice";

      EngramChatMemoryRepository byId = EngramChatMemoryRepository.fromConversationId(engram, USERS);
      assertThatThrownBy(byId::findConversationIds).isInstanceOf(CapabilityNotSupportedException.class)
          .hasMessageContaining("EngramChatMemoryRepository.of");
      assertThatThrownBy(() -> mine.saveAll("a conversation", List.of(new UserMessage("x"))))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("conversationId");
      assertThatThrownBy(() -> mine.findByConversationId(" ")).isInstanceOf(InvalidInputException.class);
      List<Message> withNull = new ArrayList<>();
      withNull.add(new UserMessage("ok"));
      withNull.add(null);
      assertThatThrownBy(() -> mine.saveAll("trip", withNull)).isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("messages[1]");
      assertThatThrownBy(() -> byId.saveAll("../bob", List.of(new UserMessage("x")))).isInstanceOf(InvalidInputException.class);
      assertThatThrownBy(() -> mine.saveAll("trip", List.of(new UserMessage("y".repeat(70_000)))))
          .isInstanceOf(InvalidInputException.class);
      assertThat(mine.findByConversationId("trip")).containsExactly(new UserMessage("Planning a trip."));
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestStores.Kind.class, names = {"MEMORY", "SQLITE"})
  void theAdvisorCanCaptureUserTurns(TestStores.Kind kind) {
    try (Engram engram = TestStores.engram(kind)) {
      MemoryResource resource = MemoryResource.builder(engram).build();
      ScriptedChatModel model = new ScriptedChatModel().then(p -> say("Hello."));
      ChatClient client = ChatClient.builder(model)
          .defaultAdvisors(EngramMemoryAdvisor.builder(resource, USERS).captureUserTurns(true).build()).build();
      client.prompt().user("I prefer metric units.").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "alice"))
          .call().content();
      assertThat(engram.sources(Grants.of("app/user/alice"), SourceQuery.defaults())).singleElement()
          .satisfies(s -> {
            assertThat(s.sessionId()).isEqualTo("alice");
            assertThat(s.speaker()).isEqualTo("user");
            assertThat(s.text()).isEqualTo("I prefer metric units.");
          });
      assertThat(engram.sources(Grants.of("app/user/bob"), SourceQuery.defaults())).isEmpty();
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CurateReport;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.ReasonerException;
import dev.engram.Revision;
import dev.engram.SearchChannel;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreReader;
import dev.engram.spi.TagFailure;
import dev.engram.spi.TopicState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The LLM reasoner's behaviour through the engine, on a real store, against the loopback model
 * server in both wire formats. A store's test module extends this with {@link #createStore()}: the
 * filing, semantic dedupe, curation and views cases, and the hostile-answer table, where every bad
 * answer must fail the call with a typed error and leave the store exactly as it was.
 */
public abstract class LlmReasonerContract {
  static final String USER = "app/user/u1";
  static final String TEAM = "app/team/t1";
  static final Grants GRANTS = Grants.of(USER, TEAM);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A new, empty store; closed by the test. */
  protected abstract MemoryStore createStore();

  /** Answers the model gives that the engine must refuse without changing memory. */
  public enum Hostile {
    NAMESPACE_OUTSIDE_GRANTS,
    UNKNOWN_DUPLICATE_ID,
    FOREIGN_CURATE_ID,
    TEN_THOUSAND_TOPICS,
    WRONG_ENUM,
    INVENTED_FACTS,
    TRUNCATED,
    NOT_JSON,
    HTML_502,
    UNAUTHORIZED,
    HANGING
  }

  /** Incubation answers the engine must refuse: nothing of the window is queued, the cursor stays. */
  public enum HostileIncubate {
    UNKNOWN_REFERENCE,
    NO_EVIDENCE,
    INVENTED_NAME,
    INVENTED_NUMBER,
    EMPTY_LESSON,
    MISSING_FIELD,
    TOO_MANY_EXPERIENCES,
    HUGE_FIELD,
    NOT_JSON,
    TRUNCATED,
    HTML_502
  }

  /** Extraction answers the engine must refuse: nothing of the window is written, the cursor stays. */
  public enum HostileExtract {
    ID_FROM_ANOTHER_SCOPE,
    UNKNOWN_REFERENCE,
    NO_EVIDENCE,
    INVENTED_NAME,
    INVENTED_NUMBER,
    WRONG_TYPE,
    TOO_MANY_MEMORIES,
    TEN_THOUSAND_TOPICS,
    HUGE_CONTENT,
    NOT_JSON,
    TRUNCATED,
    HTML_502
  }

  @Nested
  class OpenAiCompatible extends Cases {
    @Override
    Provider provider() {
      return Provider.OPENAI_COMPATIBLE;
    }
  }

  @Nested
  class Anthropic extends Cases {
    @Override
    Provider provider() {
      return Provider.ANTHROPIC;
    }
  }

  abstract class Cases {
    ModelServer server;
    MemoryStore store;
    final List<Engram> opened = new ArrayList<>();
    volatile Function<ModelServer.Recorded, ModelServer.Reply> tag = r -> ModelServer.Reply.error(500, "no tag script");
    volatile Function<ModelServer.Recorded, ModelServer.Reply> curate = r -> ModelServer.Reply.error(500, "no curate script");
    volatile Function<ModelServer.Recorded, ModelServer.Reply> extract =
        r -> ModelServer.Reply.error(500, "no extract script");
    volatile Function<ModelServer.Recorded, ModelServer.Reply> incubate =
        r -> ModelServer.Reply.error(500, "no incubate script");
    volatile Function<ModelServer.Recorded, ModelServer.Reply> views =
        r -> ModelServer.Reply.answer("{\"gist\":\"An entry.\",\"questions\":[]}");

    abstract Provider provider();

    @BeforeEach
    void start() {
      server = ModelServer.start();
      server.otherwise(r -> switch (r.job()) {
        case "tag" -> tag.apply(r);
        case "curate" -> curate.apply(r);
        case "views" -> views.apply(r);
        case "extract" -> extract.apply(r);
        case "incubate" -> incubate.apply(r);
        default -> ModelServer.Reply.error(400, "unknown job " + r.job());
      });
      store = createStore();
    }

    @AfterEach
    void stop() {
      for (Engram e : opened) {
        e.close();
      }
      store.close();
      server.close();
    }

    ModelConfig model() {
      return provider() == Provider.ANTHROPIC
          ? ModelConfig.anthropic("claude-test").baseUrl(server.anthropicBaseUrl())
          : ModelConfig.openAiCompatible("gpt-test").baseUrl(server.openAiBaseUrl());
    }

    LlmReasoner reasoner(Duration timeout) {
      return reasoner(timeout, TagFailure.FILE_DETERMINISTICALLY);
    }

    LlmReasoner reasoner(Duration timeout, TagFailure tagFailure) {
      return LlmReasoner.builder().tagger(model()).timeout(timeout).maxAttempts(2)
          .retryBackoff(Duration.ofMillis(1)).tagFailure(tagFailure).environment(Map.of()).build();
    }

    Engram engram(LlmReasoner reasoner, @Nullable Embedder embedder) {
      var b = Engram.builder().store(store).reasoner(reasoner);
      if (embedder != null) {
        b.embedder(embedder);
      }
      Engram e = b.build();
      opened.add(e);
      return e;
    }

    Engram engram() {
      return engram(reasoner(Duration.ofSeconds(10)), null);
    }

    /** Files the next writes into {@code namespace} with these topics and type, content unchanged. */
    void fileAs(String namespace, String type, String... topics) {
      tag = r -> ModelServer.Reply.answer(tagAnswer(r, namespace, type, content(r, "CONTENT"), null, topics));
    }

    ObjectNode tagAnswer(ModelServer.Recorded r, String namespace, String type, String content,
        @Nullable String duplicateOfContent, String... topics) {
      ObjectNode a = JSON.createObjectNode();
      a.put("namespace", namespace);
      ArrayNode t = a.putArray("topics");
      for (String topic : topics) {
        t.add(topic);
      }
      a.put("type", type);
      a.put("content", content);
      if (duplicateOfContent == null) {
        a.putNull("duplicate_of");
      } else {
        a.put("duplicate_of", reference(r, "CANDIDATE", duplicateOfContent));
      }
      if (r.schema().path("properties").has("views")) {
        a.putObject("views").put("gist", content).putArray("questions");
      }
      return a;
    }

    // ---- filing

    @Test
    void filesIntoTheChosenGrantWithTopicsAndCore() {
      Engram e = engram();
      fileAs(TEAM, "fact", "equipment", "core");
      WriteResult w = e.write(GRANTS, "Has dumbbells and a bench.", WriteOptions.builder().topicsHint("gear").build());

      assertThat(w.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
      assertThat(w.entry().scope()).isEqualTo(TEAM);
      assertThat(w.entry().topics()).as("the caller's topic is kept").containsExactly("gear", "equipment", "core");
      assertThat(w.entry().type()).isEqualTo(EntryType.FACT);
      assertThat(e.read(GRANTS, "core")).extracting(MemoryEntry::entryId).containsExactly(w.entry().entryId());
      assertThat(server.requests()).hasSize(1);
      assertThat(server.last().user()).contains("Caller's topic hints: gear");
    }

    @Test
    void theModelsNormalizedWordingIsStored() {
      Engram e = engram();
      tag = r -> ModelServer.Reply.answer(tagAnswer(r, USER, "preference", "Prefers metric units.", null, "preferences"));
      WriteResult w = e.write(GRANTS, "prefers metric   units!!", WriteOptions.defaults());
      assertThat(w.entry().content()).isEqualTo("Prefers metric units.");
      assertThat(w.entry().type()).isEqualTo(EntryType.PREFERENCE);
    }

    @Test
    void aSemanticDuplicateIsDedupedWithoutANewRevision() {
      Engram e = engram();
      fileAs(USER, "preference", "music");
      WriteResult first = e.write(GRANTS, "Likes jazz.", WriteOptions.builder().topicsHint("music").build());
      long revision = e.revision(GRANTS, USER);
      tag = r -> ModelServer.Reply.answer(tagAnswer(r, USER, "preference", "Enjoys jazz music.", "Likes jazz.", "music"));

      WriteResult second = e.write(GRANTS, "Enjoys jazz music.", WriteOptions.builder().topicsHint("music").build());

      assertThat(second.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
      assertThat(second.entry().entryId()).isEqualTo(first.entry().entryId());
      assertThat(e.revision(GRANTS, USER)).isEqualTo(revision);
      assertThat(e.list(GRANTS)).hasSize(1);
    }

    @Test
    void aSemanticDuplicateIsFoundByTheSearchChannelsWithoutSharedTopics() {
      Engram e = engram();
      fileAs(USER, "preference", "music");
      WriteResult first = e.write(GRANTS, "Likes jazz.", WriteOptions.builder().topicsHint("music").build());
      fileAs(USER, "fact", "general");
      e.write(GRANTS, "Has a dog.", WriteOptions.defaults());
      tag = r -> ModelServer.Reply.answer(tagAnswer(r, USER, "preference", "Enjoys jazz music.", "Likes jazz.", "music"));

      WriteResult second = e.write(GRANTS, "Enjoys jazz music.", WriteOptions.defaults());

      assertThat(second.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
      assertThat(second.entry().entryId()).isEqualTo(first.entry().entryId());
      assertThat(content(server.last(), "CANDIDATE c1")).as("the nearest entry is shown first").isEqualTo("Likes jazz.");
    }

    @Test
    void aCanonicalDuplicateCostsNoModelCall() {
      Engram e = engram();
      fileAs(TEAM, "preference", "music");
      WriteResult first = e.write(GRANTS, "Likes jazz.", WriteOptions.defaults());
      int calls = server.requests().size();

      WriteResult again = e.write(GRANTS, "  Likes   jazz. ", WriteOptions.defaults());

      assertThat(again.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
      assertThat(again.entry().entryId()).isEqualTo(first.entry().entryId());
      assertThat(again.revision()).isEqualTo(first.revision());
      assertThat(server.requests()).hasSize(calls);
    }

    @Test
    void topicsAreShownMostUsedFirst() {
      Engram e = engram();
      fileAs(USER, "fact", "pets");
      e.write(GRANTS, "Has a dog.", WriteOptions.defaults());
      fileAs(USER, "fact", "music");
      e.write(GRANTS, "Likes jazz.", WriteOptions.defaults());
      e.write(GRANTS, "Plays the piano.", WriteOptions.defaults());
      e.write(GRANTS, "Sings in a choir.", WriteOptions.defaults());
      assertThat(server.last().user()).contains("Existing topics, most used first: music, pets");
    }

    // ---- model usage per scope and day

    @Test
    void theTokensTheServerReportedAreCountedPerScopeAndDayAndErasedWithTheScope() {
      List<ModelUsage> reported = new java.util.concurrent.CopyOnWriteArrayList<>();
      LlmReasoner r = LlmReasoner.builder().tagger(model()).timeout(Duration.ofSeconds(10)).maxAttempts(1)
          .tagFailure(TagFailure.FILE_DETERMINISTICALLY).usageListener(reported::add).environment(Map.of()).build();
      java.util.concurrent.atomic.AtomicReference<java.time.Instant> now =
          new java.util.concurrent.atomic.AtomicReference<>(java.time.Instant.parse("2031-05-06T23:59:00Z"));
      java.time.Clock clock = new java.time.Clock() {
        @Override
        public java.time.Instant instant() {
          return now.get();
        }

        @Override
        public java.time.ZoneId getZone() {
          return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
          return this;
        }
      };
      Engram e = Engram.builder().store(store).reasoner(r).clock(clock).build();
      opened.add(e);
      java.time.LocalDate d1 = java.time.LocalDate.parse("2031-05-06");
      java.time.LocalDate d2 = d1.plusDays(1);
      String provider = provider() == Provider.ANTHROPIC ? "anthropic" : "openai";
      String model = model().model();

      fileAs(USER, "fact", "pets");
      e.write(GRANTS, "Has a dog.", WriteOptions.defaults());
      e.write(GRANTS, "Has a cat.", WriteOptions.defaults());
      fileAs(TEAM, "fact", "gear");
      e.write(GRANTS, "Owns a bench.", WriteOptions.defaults());
      now.set(java.time.Instant.parse("2031-05-07T00:01:00Z"));
      fileAs(TEAM, "fact", "gear");
      e.write(GRANTS, "Owns a rowing machine.", WriteOptions.defaults());
      tag = x -> ModelServer.Reply.error(502, "<html>bad gateway</html>");
      WriteResult filedWithout = e.write(GRANTS, "Has a parrot.", WriteOptions.defaults());
      assertThat(filedWithout.entry().scope()).as("filed in the first grant without the model").isEqualTo(USER);
      assertThat(reported).as("one successful call per write but the last").hasSize(4);

      List<dev.engram.ModelUsageRow> rows = e.operator().modelUsage(GRANTS, dev.engram.ModelUsageQuery.defaults());
      assertThat(rows).containsExactly(
          new dev.engram.ModelUsageRow(TEAM, d1, provider, model, "tag", 1,
              reported.get(2).inputTokens(), reported.get(2).outputTokens(), 0),
          new dev.engram.ModelUsageRow(TEAM, d2, provider, model, "tag", 1,
              reported.get(3).inputTokens(), reported.get(3).outputTokens(), 0),
          new dev.engram.ModelUsageRow(USER, d1, provider, model, "tag", 2,
              reported.get(0).inputTokens() + reported.get(1).inputTokens(),
              reported.get(0).outputTokens() + reported.get(1).outputTokens(), 0),
          new dev.engram.ModelUsageRow(USER, d2, provider, model, "tag", 1, 0, 0, 1));
      assertThat(reported).allSatisfy(u -> assertThat(u.inputTokens()).isPositive());
      assertThat(e.operator().modelUsage(Grants.of(TEAM), dev.engram.ModelUsageQuery.defaults()))
          .as("one tenant's usage is not another's").extracting(dev.engram.ModelUsageRow::scope).containsOnly(TEAM);

      e.deleteScope(GRANTS, USER, dev.engram.DeleteScopeOptions.defaults());
      assertThat(e.operator().modelUsage(GRANTS, dev.engram.ModelUsageQuery.defaults()))
          .extracting(dev.engram.ModelUsageRow::scope).containsOnly(TEAM);
    }

    // ---- the caller's fields win

    @Test
    void theCallersTypeAndTopicsWinOverTheModel() {
      Engram e = engram();
      tag = r -> ModelServer.Reply.answer(tagAnswer(r, USER, "fact", "Ran the Berlin marathon.", null, "location"));

      WriteResult w = e.write(GRANTS, "ran the berlin marathon",
          WriteOptions.builder().type(EntryType.EVENT).topicsHint("races").build());

      assertThat(w.entry().type()).isEqualTo(EntryType.EVENT);
      assertThat(w.entry().topics()).containsExactly("races", "location");
      assertThat(w.entry().content()).as("the wording was left open").isEqualTo("Ran the Berlin marathon.");
      assertThat(w.warnings()).noneMatch(x -> x.contains("without the reasoner"));
      assertThat(e.read(GRANTS, "races")).extracting(MemoryEntry::entryId).containsExactly(w.entry().entryId());
      assertThat(server.last().user()).contains("Caller's type hint: event (kept)");
    }

    @Test
    void anExplicitWriteSucceedsWhileTheModelIsDownEvenWhenFailedTagsFail() {
      Engram e = engram(reasoner(Duration.ofSeconds(10), TagFailure.FAIL), null);
      tag = r -> ModelServer.Reply.error(503, "model overloaded");

      WriteResult w = e.write(GRANTS, "Ran the Berlin marathon.",
          WriteOptions.builder().type(EntryType.EVENT).topicsHint("races").build());

      assertThat(w.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
      assertThat(w.entry().scope()).isEqualTo(USER);
      assertThat(w.entry().type()).isEqualTo(EntryType.EVENT);
      assertThat(w.entry().topics()).containsExactly("races");
      assertThat(w.warnings()).anySatisfy(x -> assertThat(x).contains("filed without the reasoner")
          .contains("REASONER_FAILED").doesNotContain("overloaded"));
      Snapshot before = Snapshot.of(store, List.of(USER, TEAM));
      assertThatThrownBy(() -> e.write(GRANTS, "Likes jazz.", WriteOptions.builder().topicsHint("music").build()))
          .isInstanceOf(LlmException.class);
      assertThat(Snapshot.of(store, List.of(USER, TEAM))).isEqualTo(before);
    }

    // ---- curation

    @Test
    void curateMergesRewritesCompactsPromotesAndWritesTheBlurb() {
      Engram e = engram();
      fileAs(USER, "fact", "fitness");
      e.write(GRANTS, "Likes running.", WriteOptions.defaults());
      e.write(GRANTS, "Enjoys running.", WriteOptions.defaults());
      e.write(GRANTS, "Runs 5 km on Mondays.", WriteOptions.defaults());
      e.write(GRANTS, "Ran 5 km on 3 March.", WriteOptions.defaults());
      e.write(GRANTS, "Ran 8 km on 10 March.", WriteOptions.defaults());
      e.write(GRANTS, "Trains for a marathon in October.", WriteOptions.defaults());
      e.write(GRANTS, "Now runs on Tuesdays, not Mondays.", WriteOptions.defaults());
      curate = r -> ModelServer.Reply.answer(curateAnswer(r,
          op("merge", "Likes running.", List.of("Enjoys running."), null, null),
          op("rewrite", "Runs 5 km on Mondays.", null, "Runs 5 km on Tuesdays.", null),
          op("compact", null, List.of("Ran 5 km on 3 March.", "Ran 8 km on 10 March."),
              "Ran 5 km on 3 March and 8 km on 10 March.", null),
          op("set_core", "Trains for a marathon in October.", null, null, true))
          .put("blurb", "Running habits and the marathon plan."));

      CurateReport report = e.curate(GRANTS);

      assertThat(report.rejected()).isEmpty();
      assertThat(report.applied()).hasSize(5);
      List<String> active = e.read(GRANTS, "fitness").stream().map(MemoryEntry::content).toList();
      assertThat(active).containsExactlyInAnyOrder("Likes running.", "Runs 5 km on Tuesdays.",
          "Ran 5 km on 3 March and 8 km on 10 March.", "Trains for a marathon in October.",
          "Now runs on Tuesdays, not Mondays.");
      assertThat(e.read(GRANTS, "core")).extracting(MemoryEntry::content)
          .containsExactly("Trains for a marathon in October.");
      MemoryEntry summary = e.read(GRANTS, "fitness").stream()
          .filter(m -> m.content().startsWith("Ran 5 km on 3 March and")).findFirst().orElseThrow();
      assertThat(summary.type()).isEqualTo(EntryType.SUMMARY);
      assertThat(e.scan(GRANTS)).filteredOn(t -> t.topic().equals("fitness"))
          .extracting(TopicSummary::blurb).containsExactly("Running habits and the marathon plan.");
      assertThat(server.last().user()).doesNotContain(USER);
    }

    @Test
    void theCoreBlurbIsTheOneLineProfile() {
      Engram e = engram();
      fileAs(USER, "fact", "core");
      e.write(GRANTS, "Has dumbbells and a bench.", WriteOptions.defaults());
      curate = r -> ModelServer.Reply.answer(curateAnswer(r).put("blurb",
          r.user().contains("Topic: core") ? "Trains at home with dumbbells and a bench." : null));
      e.curate(GRANTS);
      assertThat(e.scan(GRANTS)).filteredOn(t -> t.topic().equals("core"))
          .extracting(TopicSummary::blurb).containsExactly("Trains at home with dumbbells and a bench.");
    }

    // ---- views

    @Test
    void modelViewsFeedTheVectorChannel() {
      Engram e = engram(reasoner(Duration.ofSeconds(10)), new WordHashEmbedder());
      fileAs(USER, "fact", "equipment");
      views = r -> ModelServer.Reply.answer(
          "{\"gist\":\"Kettlebell kept in the garage.\",\"questions\":[\"Where does the kettlebell live?\"]}");
      tag = r -> {
        ObjectNode a = tagAnswer(r, USER, "fact", content(r, "CONTENT"), null, "equipment");
        if (a.has("views")) {
          a.putObject("views").put("gist", "Kettlebell kept in the garage.").putArray("questions")
              .add("Where does the kettlebell live?");
        }
        return ModelServer.Reply.answer(a);
      };
      e.write(GRANTS, "Keeps a kettlebell in the garage.", WriteOptions.defaults());
      assertThat(server.requests()).as("tag and views in one call").singleElement()
          .satisfies(r -> assertThat(r.job()).isEqualTo("tag"));

      SearchResult hits = e.search(GRANTS, SearchRequest.builder("Where does the kettlebell live?")
          .mode(SearchMode.VECTOR).build());
      assertThat(hits.hits()).isNotEmpty();
      assertThat(hits.hits().get(0).entry().content()).isEqualTo("Keeps a kettlebell in the garage.");
      assertThat(hits.hits().get(0).matchedBy()).contains(SearchChannel.VECTOR);
      assertThat(hits.hits().get(0).cosine()).isGreaterThan(0.99);
    }

    // ---- extraction from captured sources

    final java.time.Instant t0 = java.time.Instant.parse("2023-05-08T09:30:00Z");

    List<dev.engram.CapturedSource> conversation(Engram e) {
      return e.captureAll(Grants.of(USER), List.of(
          dev.engram.SourceRecord.of("chat-1", "Ana", "I moved to Lisbon in May.").at(t0).id("m-1"),
          dev.engram.SourceRecord.of("chat-1", "Ben", "Nice! How is the new job going?").at(t0.plusSeconds(40)).id("m-2"),
          dev.engram.SourceRecord.of("chat-1", "Ana", "I started as a nurse at Santa Maria hospital.")
              .at(t0.plusSeconds(90)).id("m-3")));
    }

    /** A memory of an extract answer. */
    ObjectNode memory(String content, String type, List<String> evidence, String... topics) {
      ObjectNode m = JSON.createObjectNode();
      m.put("content", content);
      m.put("type", type);
      ArrayNode t = m.putArray("topics");
      for (String topic : topics) {
        t.add(topic);
      }
      ArrayNode ev = m.putArray("evidence");
      evidence.forEach(ev::add);
      return m;
    }

    ObjectNode extractAnswer(ModelServer.Recorded r, ObjectNode... memories) {
      ObjectNode a = JSON.createObjectNode();
      ArrayNode list = a.putArray("memories");
      for (ObjectNode m : memories) {
        if (r.schema().path("properties").path("memories").path("items").path("properties").has("views")) {
          m.putObject("views").put("gist", m.path("content").asText()).putArray("questions");
        }
        list.add(m);
      }
      return a;
    }

    ObjectNode validExtract(ModelServer.Recorded r) {
      return extractAnswer(r,
          memory("Ana moved to Lisbon in May.", "event", List.of("r1"), "home"),
          memory("Ana works as a nurse at Santa Maria hospital.", "fact", List.of("r3", "r2"), "work", "core"));
    }

    @Test
    void flushExtractsCitedMemoriesFromAWindowInOneModelCall() {
      Engram e = engram();
      List<dev.engram.CapturedSource> captured = conversation(e);
      extract = r -> ModelServer.Reply.answer(validExtract(r));

      dev.engram.FlushReport report = e.flush(Grants.of(USER));

      assertThat(report.failures()).isEmpty();
      assertThat(report.windows()).isEqualTo(1);
      assertThat(report.appended()).isEqualTo(2);
      assertThat(report.skipped()).as("m-2 is cited by the second memory").isZero();
      assertThat(server.requests()).singleElement().satisfies(r -> {
        assertThat(r.job()).isEqualTo("extract");
        assertThat(content(r, "RECORD r3")).isEqualTo("I started as a nurse at Santa Maria hospital.");
        assertThat(content(r, "SPEAKER r1")).isEqualTo("Ana");
        assertThat(r.user()).contains("Monday 8 May 2023 (2023-05-08)").doesNotContain(USER);
        assertThat(r.schema().path("properties").path("memories").path("items").path("properties").path("evidence")
            .path("items").path("enum")).extracting(com.fasterxml.jackson.databind.JsonNode::asText)
            .containsExactly("r1", "r2", "r3");
      });
      MemoryEntry nurse = e.read(Grants.of(USER), "core").get(0);
      assertThat(nurse.content()).isEqualTo("Ana works as a nurse at Santa Maria hospital.");
      assertThat(nurse.topics()).containsExactly("work", "core");
      assertThat(nurse.evidence()).containsExactly("m-3", "m-2");
      assertThat(nurse.occurredAt()).as("the latest cited record's time").isEqualTo(t0.plusSeconds(90));
      assertThat(e.evidence(Grants.of(USER), nurse.entryId())).containsExactly(captured.get(2), captured.get(1));
      MemoryEntry moved = e.read(Grants.of(USER), "home").get(0);
      assertThat(moved.type()).isEqualTo(EntryType.EVENT);
      assertThat(moved.evidence()).containsExactly("m-1");
      assertThat(store.sourceState(USER)).isEqualTo(new dev.engram.spi.SourceState(3, 3));
      assertThat(e.flush(Grants.of(USER)).windows()).isZero();
      assertThat(server.requests()).as("an extracted window is never sent again").hasSize(1);
    }

    @Test
    void withAnEmbedderTheViewsComeInTheExtractAnswer() {
      Engram e = engram(reasoner(Duration.ofSeconds(10)), new WordHashEmbedder());
      conversation(e);
      extract = r -> ModelServer.Reply.answer(validExtract(r));
      assertThat(e.flush(Grants.of(USER)).appended()).isEqualTo(2);
      assertThat(server.requests()).as("no views call per memory").extracting(ModelServer.Recorded::job)
          .containsExactly("extract");
      SearchResult hits = e.search(Grants.of(USER), SearchRequest.builder("Ana works as a nurse at Santa Maria hospital.")
          .mode(SearchMode.VECTOR).build());
      assertThat(hits.hits().get(0).entry().evidence()).containsExactly("m-3", "m-2");
    }

    @ParameterizedTest
    @EnumSource(HostileExtract.class)
    void aHostileExtractAnswerIsReportedAndWritesNothingOfTheWindow(HostileExtract hostile) {
      Engram e = engram();
      e.capture(Grants.of(TEAM), dev.engram.SourceRecord.of("chat-9", "Eve", "Team secret.").id("foreign-1"));
      conversation(e);
      Snapshot before = Snapshot.of(store, List.of(USER, TEAM));
      extract = r -> switch (hostile) {
        case ID_FROM_ANOTHER_SCOPE -> ModelServer.Reply.answer(extractAnswer(r,
            memory("Ana moved to Lisbon in May.", "event", List.of("foreign-1"), "home")));
        case UNKNOWN_REFERENCE -> ModelServer.Reply.answer(extractAnswer(r,
            memory("Ana moved to Lisbon in May.", "event", List.of("r1"), "home"),
            memory("Ana moved again.", "event", List.of("r9"), "home")));
        case NO_EVIDENCE -> ModelServer.Reply.answer(extractAnswer(r,
            memory("Ana moved to Lisbon in May.", "event", List.of(), "home")));
        case INVENTED_NAME -> ModelServer.Reply.answer(extractAnswer(r,
            memory("Ana moved to Lisbon in May with her husband Carlos.", "event", List.of("r1"), "home")));
        case INVENTED_NUMBER -> ModelServer.Reply.answer(extractAnswer(r,
            memory("Ana moved to Lisbon in May 2019.", "event", List.of("r1"), "home")));
        case WRONG_TYPE -> ModelServer.Reply.answer(extractAnswer(r,
            memory("Ana moved to Lisbon in May.", "rumour", List.of("r1"), "home")));
        case TOO_MANY_MEMORIES -> {
          ObjectNode[] many = new ObjectNode[13];
          for (int i = 0; i < many.length; i++) {
            many[i] = memory("Ana moved to Lisbon in May.", "event", List.of("r1"), "home");
          }
          yield ModelServer.Reply.answer(extractAnswer(r, many));
        }
        case TEN_THOUSAND_TOPICS -> {
          ObjectNode m = memory("Ana moved to Lisbon in May.", "event", List.of("r1"));
          ArrayNode t = m.putArray("topics");
          for (int i = 0; i < 10_000; i++) {
            t.add("topic" + i);
          }
          yield ModelServer.Reply.answer(extractAnswer(r, m));
        }
        case HUGE_CONTENT -> ModelServer.Reply.answer(extractAnswer(r,
            memory("Ana moved to Lisbon in May. ".repeat(2_000), "event", List.of("r1"), "home")));
        case NOT_JSON -> ModelServer.Reply.text("Ana moved to Lisbon, that is all.");
        case TRUNCATED -> ModelServer.Reply.truncated(validExtract(r));
        case HTML_502 -> ModelServer.Reply.html(502);
      };

      dev.engram.FlushReport report = e.flush(Grants.of(USER));

      assertThat(report.windows()).isZero();
      assertThat(report.failures()).singleElement().satisfies(f -> {
        assertThat(f.scope()).isEqualTo(USER);
        assertThat(f.fromPosition()).isEqualTo(1);
        assertThat(f.toPosition()).isEqualTo(3);
        assertThat(f.code()).isEqualTo(hostile == HostileExtract.HTML_502
            ? dev.engram.ErrorCode.REASONER_FAILED : dev.engram.ErrorCode.INVALID_MODEL_OUTPUT);
      });
      assertThat(Snapshot.of(store, List.of(USER, TEAM))).isEqualTo(before);
      assertThat(store.sourceState(USER)).isEqualTo(new dev.engram.spi.SourceState(3, 0));

      extract = r -> ModelServer.Reply.answer(validExtract(r));
      dev.engram.FlushReport retry = e.flush(Grants.of(USER));
      assertThat(retry.failed()).isFalse();
      assertThat(retry.appended()).isEqualTo(2);
      assertThat(e.list(Grants.of(USER))).hasSize(2);
    }

    // ---- experience: task outcomes → pending experience → a reviewer → context

    List<dev.engram.CapturedSource> deployOutcome(Engram e) {
      return e.captureAll(Grants.of(USER), List.of(
          dev.engram.SourceRecord.of("deploy-1", "agent", "Starting the ledger deploy now.").at(t0).id("d-1"),
          dev.engram.SourceRecord.taskOutcome("deploy-1", "agent", "Task: deploy the ledger service. I ran the schema"
              + " migration before the rollout; the old pods crashed on the new schema and checkout was down for ten"
              + " minutes. Rolling out first and migrating afterwards fixed it.").at(t0.plusSeconds(600)).id("d-2"),
          dev.engram.SourceRecord.of("chat-1", "Ana", "Thanks for the update.").at(t0.plusSeconds(700)).id("d-3")));
    }

    ObjectNode experience(String situation, String action, String outcome, String lesson, List<String> evidence) {
      ObjectNode x = JSON.createObjectNode();
      x.put("situation", situation);
      x.put("action", action);
      x.put("outcome", outcome);
      x.put("lesson", lesson);
      ArrayNode ev = x.putArray("evidence");
      evidence.forEach(ev::add);
      return x;
    }

    ObjectNode incubateAnswer(ObjectNode... experiences) {
      ObjectNode a = JSON.createObjectNode();
      ArrayNode list = a.putArray("experiences");
      for (ObjectNode x : experiences) {
        list.add(x);
      }
      return a;
    }

    ObjectNode validIncubate() {
      return incubateAnswer(experience("Deploying the ledger service",
          "Ran the schema migration before the rollout",
          "The old pods crashed on the new schema and checkout was down for ten minutes",
          "Roll out first and run the schema migration afterwards", List.of("o1")));
    }

    @Test
    void incubatedExperienceWaitsForAReviewerAndOnlyThenReachesTheContextWithinItsShare() {
      Engram e = engram();
      deployOutcome(e);
      e.write(Grants.of(USER), "The ledger service runs on Kubernetes.",
          WriteOptions.builder().topicsHint("ops").type(EntryType.FACT).build());
      incubate = r -> ModelServer.Reply.answer(validIncubate());

      dev.engram.IncubationReport report = e.experience().incubate(Grants.of(USER));

      assertThat(report.failures()).isEmpty();
      assertThat(report.windows()).isEqualTo(1);
      assertThat(report.pending()).singleElement().satisfies(i -> {
        assertThat(i.state()).isEqualTo(dev.engram.ReviewState.PENDING);
        assertThat(i.evidence()).containsExactly("d-2");
      });
      assertThat(server.requests()).filteredOn(r -> r.job().equals("incubate")).singleElement().satisfies(r -> {
        assertThat(content(r, "OUTCOME o1")).startsWith("Task: deploy the ledger service.");
        assertThat(r.user()).as("only task outcomes are shown").doesNotContain("Starting the ledger deploy")
            .doesNotContain(USER);
        assertThat(r.schema().path("properties").path("experiences").path("items").path("properties")
            .path("evidence").path("items").path("enum")).extracting(com.fasterxml.jackson.databind.JsonNode::asText)
            .containsExactly("o1");
        assertThat(r.schema().path("properties").path("experiences").path("items").path("additionalProperties")
            .asBoolean(true)).as("strict schema").isFalse();
      });
      dev.engram.ReviewItem pending = report.pending().get(0);
      String task = "deploy the ledger schema migration rollout";
      assertThat(e.search(Grants.of(USER), task).hits()).extracting(h -> h.entry().content())
          .containsExactly("The ledger service runs on Kubernetes.");
      assertThat(e.prepareContext(Grants.of(USER), dev.engram.ContextRequest.of(task)).experience())
          .as("a pending experience never reaches context").isEmpty();
      assertThat(e.experience().list(Grants.of(USER), dev.engram.ExperienceListOptions.defaults())).isEmpty();

      dev.engram.ReviewOutcome approved = e.review().approve(Grants.of(USER), pending.id(),
          dev.engram.ApproveRequest.of(pending.version(), "reviewer-ana"));
      dev.engram.Experience x = approved.experience();
      assertThat(x.actor()).isEqualTo("reviewer-ana");
      assertThat(x.lesson()).isEqualTo("Roll out first and run the schema migration afterwards");

      dev.engram.PreparedContext ctx = e.prepareContext(Grants.of(USER), dev.engram.ContextRequest.of(task));
      assertThat(ctx.experience()).containsExactly(x.citation());
      assertThat(ctx.experience().size()).isLessThanOrEqualTo(dev.engram.PreparedContext.MAX_EXPERIENCE_ITEMS);
      assertThat(ctx.citations()).extracting(dev.engram.Citation::entryId).hasSize(1);
      assertThat(ctx.contentBytes()).isLessThanOrEqualTo(dev.engram.ContextRequest.DEFAULT_MAX_BYTES);
      String item = ctx.content().substring(ctx.content().indexOf("cite " + x.citation().render()));
      assertThat(item).startsWith("cite " + x.citation().render() + " | experience\n| Lesson: Roll out first");
      assertThat(item.substring(0, item.indexOf(dev.engram.UntrustedText.END)).getBytes(
          java.nio.charset.StandardCharsets.UTF_8).length).as("one item within the per-item cap and its head")
          .isLessThanOrEqualTo(2000 + 200);
      assertThat(ctx.content().indexOf(dev.engram.UntrustedText.BEGIN)).isLessThan(ctx.content().indexOf(item));

      dev.engram.VersionConflictException stale = org.assertj.core.api.Assertions.catchThrowableOfType(
          () -> e.review().approve(Grants.of(USER), pending.id(), dev.engram.ApproveRequest.of(pending.version(), "bob")),
          dev.engram.VersionConflictException.class);
      assertThat(stale.code()).isEqualTo(dev.engram.ErrorCode.VERSION_CONFLICT);
      assertThat(stale.expectedVersion()).isEqualTo(1);
      assertThat(stale.actualVersion()).isEqualTo(2);
      assertThat(e.experience().list(Grants.of(USER), dev.engram.ExperienceListOptions.defaults())).containsExactly(x);
      assertThat(e.experience().incubate(Grants.of(USER)).windows()).as("an incubated window is never sent again")
          .isZero();
    }

    @ParameterizedTest
    @EnumSource(HostileIncubate.class)
    void aHostileIncubateAnswerIsReportedAndQueuesNothing(HostileIncubate hostile) {
      Engram e = engram();
      deployOutcome(e);
      Snapshot before = Snapshot.of(store, List.of(USER, TEAM));
      String s = "Deploying the ledger service";
      String a = "Ran the schema migration before the rollout";
      String o = "The old pods crashed";
      String l = "Roll out first";
      incubate = r -> switch (hostile) {
        case UNKNOWN_REFERENCE -> ModelServer.Reply.answer(incubateAnswer(experience(s, a, o, l, List.of("o7"))));
        case NO_EVIDENCE -> ModelServer.Reply.answer(incubateAnswer(experience(s, a, o, l, List.of())));
        case INVENTED_NAME -> ModelServer.Reply.answer(incubateAnswer(experience(s, a, o, "Ask Carlos before deploying",
            List.of("o1"))));
        case INVENTED_NUMBER -> ModelServer.Reply.answer(incubateAnswer(experience(s, a,
            "Checkout was down for 45 minutes", l, List.of("o1"))));
        case EMPTY_LESSON -> ModelServer.Reply.answer(incubateAnswer(experience(s, a, o, " ", List.of("o1"))));
        case MISSING_FIELD -> {
          ObjectNode x = experience(s, a, o, l, List.of("o1"));
          x.remove("outcome");
          yield ModelServer.Reply.answer(incubateAnswer(x));
        }
        case TOO_MANY_EXPERIENCES -> ModelServer.Reply.answer(incubateAnswer(experience(s, a, o, l, List.of("o1")),
            experience(s, a, o, "Roll out first, again", List.of("o1"))));
        case HUGE_FIELD -> ModelServer.Reply.answer(incubateAnswer(experience(s, a, o, "Roll out first. ".repeat(400),
            List.of("o1"))));
        case NOT_JSON -> ModelServer.Reply.text("Roll out first, that is the lesson.");
        case TRUNCATED -> ModelServer.Reply.truncated(validIncubate());
        case HTML_502 -> ModelServer.Reply.html(502);
      };

      dev.engram.IncubationReport report = e.experience().incubate(Grants.of(USER));

      assertThat(report.pending()).isEmpty();
      assertThat(report.failures()).singleElement().satisfies(f -> {
        assertThat(f.scope()).isEqualTo(USER);
        assertThat(f.code()).isEqualTo(hostile == HostileIncubate.HTML_502
            ? dev.engram.ErrorCode.REASONER_FAILED : dev.engram.ErrorCode.INVALID_MODEL_OUTPUT);
      });
      assertThat(e.review().list(Grants.of(USER))).isEmpty();
      assertThat(store.incubationCursor(USER)).isZero();
      assertThat(Snapshot.of(store, List.of(USER, TEAM))).isEqualTo(before);

      incubate = r -> ModelServer.Reply.answer(validIncubate());
      assertThat(e.experience().incubate(Grants.of(USER)).pending()).as("the window is tried again").hasSize(1);
    }

    // ---- hostile answers

    @ParameterizedTest
    @EnumSource(Hostile.class)
    void aHostileAnswerFailsTypedAndChangesNothingWhenFailedTagsFail(Hostile hostile) {
      Engram e = engram(reasoner(hostile == Hostile.HANGING ? Duration.ofMillis(300) : Duration.ofSeconds(10),
          TagFailure.FAIL), null);
      fileAs(USER, "preference", "music");
      e.write(GRANTS, "Likes jazz.", WriteOptions.builder().topicsHint("music").build());
      e.write(GRANTS, "Plays the piano.", WriteOptions.builder().topicsHint("music").build());
      Snapshot before = Snapshot.of(store, List.of(USER, TEAM));
      script(hostile);

      if (hostile == Hostile.FOREIGN_CURATE_ID) {
        assertThatThrownBy(() -> e.curate(GRANTS)).isInstanceOf(ReasonerException.class)
            .hasMessageContaining("is not one of the 2 entries shown");
      } else {
        assertThatThrownBy(() -> e.write(GRANTS, "Enjoys jazz music.", WriteOptions.builder().topicsHint("music").build()))
            .isInstanceOf(ReasonerException.class)
            .satisfies(x -> assertThat(x.getMessage()).doesNotContain("SECRET"));
      }
      assertThat(Snapshot.of(store, List.of(USER, TEAM))).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(value = Hostile.class, names = "FOREIGN_CURATE_ID", mode = EnumSource.Mode.EXCLUDE)
    void byDefaultAHostileTagAnswerIsIgnoredAndTheWriteFiledDeterministically(Hostile hostile) {
      Engram e = engram(reasoner(hostile == Hostile.HANGING ? Duration.ofMillis(300) : Duration.ofSeconds(10)), null);
      fileAs(USER, "preference", "music");
      e.write(GRANTS, "Likes jazz.", WriteOptions.builder().topicsHint("music").build());
      script(hostile);

      WriteResult w = e.write(GRANTS, "Enjoys jazz music.", WriteOptions.builder().topicsHint("music").build());

      assertThat(w.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
      assertThat(w.entry().scope()).as("the first grant, whatever the answer named").isEqualTo(USER);
      assertThat(w.entry().topics()).containsExactly("music");
      assertThat(w.entry().type()).as("the deterministic type, not the model's").isEqualTo(EntryType.FACT);
      assertThat(w.entry().content()).as("as written, not the model's wording").isEqualTo("Enjoys jazz music.");
      assertThat(w.warnings()).anySatisfy(x -> assertThat(x).contains("filed without the reasoner")
          .doesNotContain("SECRET"));
      assertThat(e.list(Grants.of(TEAM))).isEmpty();
      assertThat(e.list(GRANTS)).hasSize(2);
    }

    void script(Hostile hostile) {
      switch (hostile) {
        case NAMESPACE_OUTSIDE_GRANTS -> tag = r -> ModelServer.Reply.answer(
            tagAnswer(r, "app/admin", "preference", "Enjoys jazz music.", null, "music"));
        case UNKNOWN_DUPLICATE_ID -> tag = r -> {
          ObjectNode a = tagAnswer(r, USER, "preference", "Enjoys jazz music.", null, "music");
          a.put("duplicate_of", "c99");
          return ModelServer.Reply.answer(a);
        };
        case FOREIGN_CURATE_ID -> curate = r -> {
          ObjectNode a = curateAnswer(r);
          ObjectNode o = op("retire", null, null, null, null);
          o.put("target", "01HFOREIGNENTRYID0000000000");
          a.withArray("ops").add(o);
          return ModelServer.Reply.answer(a);
        };
        case TEN_THOUSAND_TOPICS -> tag = r -> {
          ObjectNode a = tagAnswer(r, USER, "preference", "Enjoys jazz music.", null);
          ArrayNode t = a.putArray("topics");
          for (int i = 0; i < 10_000; i++) {
            t.add("topic" + i);
          }
          return ModelServer.Reply.answer(a);
        };
        case WRONG_ENUM -> tag = r -> ModelServer.Reply.answer(
            tagAnswer(r, USER, "opinion", "Enjoys jazz music.", null, "music"));
        case INVENTED_FACTS -> tag = r -> ModelServer.Reply.answer(
            tagAnswer(r, USER, "preference", "Enjoys jazz music, especially Coltrane since 1998.", null, "music"));
        case TRUNCATED -> tag = r -> ModelServer.Reply.truncated(
            tagAnswer(r, USER, "preference", "Enjoys jazz music.", null, "music"));
        case NOT_JSON -> tag = r -> ModelServer.Reply.text("I have filed this under music for you.");
        case HTML_502 -> tag = r -> ModelServer.Reply.html(502);
        case UNAUTHORIZED -> tag = r -> ModelServer.Reply.error(401, "invalid x-api-key sk-SECRET0123456789abcdef");
        case HANGING -> tag = r -> ModelServer.Reply.hanging();
      }
    }

    @Test
    void rateLimitedThenOkIsRetriedAndTheAttemptsAreCounted() {
      List<ModelUsage> usage = new java.util.concurrent.CopyOnWriteArrayList<>();
      LlmReasoner r = LlmReasoner.builder().tagger(model()).maxAttempts(3).retryBackoff(Duration.ofMillis(1))
          .usageListener(usage::add).environment(Map.of()).build();
      Engram e = engram(r, null);
      fileAs(USER, "preference", "music");
      server.enqueue(ModelServer.Reply.error(429, "rate limited").withHeader("Retry-After", "0"));
      WriteResult w = e.write(GRANTS, "Likes jazz.", WriteOptions.defaults());
      assertThat(w.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
      assertThat(server.requests()).hasSize(2);
      assertThat(usage).singleElement().satisfies(u -> assertThat(u.attempts()).isEqualTo(2));
    }

    @Test
    void withoutAKeyAWriteIsFiledWithoutTheModelAndSaysSo() {
      LlmReasoner r = LlmReasoner.fromEnvironment(Map.of("ENGRAM_LLM_PROVIDER",
          provider() == Provider.ANTHROPIC ? "anthropic" : "openai"));
      WriteResult w = engram(r, null).write(GRANTS, "Likes jazz.", WriteOptions.defaults());
      assertThat(w.entry().topics()).containsExactly("general");
      assertThat(w.warnings()).anySatisfy(x -> assertThat(x).contains("filed without the reasoner"));
      assertThat(server.requests()).isEmpty();
    }

    @Test
    void withoutAKeyAndFailingTagsTheFirstWriteFailsNamingTheVariableAndStoresNothing() {
      LlmReasoner r = LlmReasoner.builder().tagger(provider() == Provider.ANTHROPIC
              ? ModelConfig.anthropic(LlmReasoner.DEFAULT_ANTHROPIC_MODEL) : ModelConfig.openAiCompatible(LlmReasoner.DEFAULT_OPENAI_MODEL))
          .tagFailure(TagFailure.FAIL).environment(Map.of()).build();
      Engram e = engram(r, null);
      Snapshot before = Snapshot.of(store, List.of(USER, TEAM));
      assertThatThrownBy(() -> e.write(GRANTS, "Likes jazz.", WriteOptions.defaults()))
          .isInstanceOf(ReasonerException.class)
          .hasMessageContaining(provider() == Provider.ANTHROPIC ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
      assertThat(Snapshot.of(store, List.of(USER, TEAM))).isEqualTo(before);
      assertThat(e.list(GRANTS)).isEmpty();
    }

    // ---- answer builders

    ObjectNode curateAnswer(ModelServer.Recorded r, ObjectNode... ops) {
      ObjectNode a = JSON.createObjectNode();
      ArrayNode list = a.putArray("ops");
      for (ObjectNode o : ops) {
        ObjectNode resolved = o.deepCopy();
        if (o.hasNonNull("target")) {
          resolved.put("target", reference(r, "ENTRY", o.get("target").asText()));
        }
        if (o.hasNonNull("entries")) {
          ArrayNode refs = resolved.putArray("entries");
          o.get("entries").forEach(c -> refs.add(reference(r, "ENTRY", c.asText())));
        }
        list.add(resolved);
      }
      a.putNull("blurb");
      return a;
    }

    /** An op naming entries by their content; {@link #curateAnswer} turns contents into references. */
    ObjectNode op(String op, @Nullable String target, @Nullable List<String> entries, @Nullable String content,
        @Nullable Boolean core) {
      ObjectNode o = JSON.createObjectNode();
      o.put("op", op);
      if (target == null) {
        o.putNull("target");
      } else {
        o.put("target", target);
      }
      if (entries == null) {
        o.putNull("entries");
      } else {
        entries.forEach(o.putArray("entries")::add);
      }
      if (content == null) {
        o.putNull("content");
      } else {
        o.put("content", content);
      }
      if (core == null) {
        o.putNull("core");
      } else {
        o.put("core", core);
      }
      o.putNull("reason");
      return o;
    }
  }

  /** The text of a delimited block in the request. */
  static String content(ModelServer.Recorded r, String label) {
    Matcher m = Pattern.compile("(?s)<<<BEGIN " + label + ">>>\n(.*?)\n<<<END " + label + ">>>").matcher(r.user());
    if (!m.find()) {
      throw new IllegalStateException("no " + label + " block in the request");
    }
    return m.group(1);
  }

  /** The reference under which a block with exactly {@code text} was shown. */
  static String reference(ModelServer.Recorded r, String kind, String text) {
    Matcher m = Pattern.compile("(?s)<<<BEGIN " + kind + " (\\w+)>>>\n(.*?)\n<<<END " + kind + " \\1>>>")
        .matcher(r.user());
    while (m.find()) {
      if (m.group(2).equals(text)) {
        return m.group(1);
      }
    }
    throw new IllegalStateException("the request shows no " + kind + " '" + text + "'");
  }

  /** Everything a store holds for some scopes, read through the SPI. */
  record Snapshot(List<MemoryEntry> versions, Map<String, List<MemoryEvent>> events,
      Map<String, List<Revision>> revisions, Map<String, Long> heads, List<TopicState> topics) {
    static Snapshot of(StoreReader store, List<String> scopes) {
      List<MemoryEntry> versions = new ArrayList<>(store.versionsIn(scopes, EnumSet.allOf(EntryStatus.class)));
      versions.sort(Comparator.comparing(MemoryEntry::versionId));
      Map<String, List<MemoryEvent>> events = new TreeMap<>();
      versions.forEach(v -> events.computeIfAbsent(v.entryId(), store::events));
      Map<String, List<Revision>> revisions = new TreeMap<>();
      Map<String, Long> heads = new TreeMap<>();
      for (String s : scopes) {
        revisions.put(s, store.revisions(s, 0, 1_000_000));
        heads.put(s, store.headRevision(s));
      }
      List<TopicState> topics = new ArrayList<>(store.topics(scopes));
      topics.sort(Comparator.comparing(TopicState::scope).thenComparing(TopicState::topic));
      return new Snapshot(versions, events, revisions, heads, topics);
    }
  }

  /** Words hashed into buckets: texts with the same words get cosine 1. */
  static final class WordHashEmbedder implements Embedder {
    private final EmbeddingProfile profile = new EmbeddingProfile("word-hash", 128);

    @Override
    public EmbeddingProfile profile() {
      return profile;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      List<float[]> out = new ArrayList<>();
      for (String t : texts) {
        float[] v = new float[profile.dimension()];
        for (String term : FullTextQuery.terms(t)) {
          v[Math.floorMod(term.hashCode(), v.length)] += 1;
        }
        v[v.length - 1] += 0.01f;
        out.add(v);
      }
      return out;
    }
  }
}

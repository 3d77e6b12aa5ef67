/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.InvalidInputException;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.StoreException;
import dev.engram.WriteOptions;
import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.LlmReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.agent.MemoryResource;
import dev.engram.springai.EngramChatMemoryRepository;
import dev.engram.springai.EngramMemoryAdvisor;
import dev.engram.springai.EngramToolCallbackProvider;
import dev.engram.springai.EngramVectorStore;
import dev.engram.springai.GrantsResolver;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import dev.engram.store.postgres.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.document.Document;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class EngramAutoConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(EngramAutoConfiguration.class));

  private static void writesAndReadsBack(Engram engram) {
    Grants grants = Grants.of("app/user/u1");
    engram.write(grants, "Prefers metric units.", WriteOptions.builder().topicsHint("preferences").build());
    assertThat(engram.read(grants, "preferences")).extracting(e -> e.content()).containsExactly("Prefers metric units.");
  }

  @Test
  void defaultsToTheInMemoryStoreTheDeterministicReasonerAndE5() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(MemoryStore.class)).isInstanceOf(InMemoryMemoryStore.class);
      assertThat(context.getBean(Reasoner.class)).isInstanceOf(DeterministicReasoner.class);
      assertThat(context.getBean(Embedder.class)).isInstanceOf(E5SmallEmbedder.class);
      assertThat(context).doesNotHaveBean(GrantsResolver.class).doesNotHaveBean(EngramVectorStore.class);
      Engram engram = context.getBean(Engram.class);
      writesAndReadsBack(engram);
      assertThat(engram.search(Grants.of("app/user/u1"), SearchRequest.of("metric")).used()).isEqualTo(SearchMode.HYBRID);
    });
  }

  @Test
  void maintenanceRunsOnlyWhenGrantsAreNamedAndStopsWithTheContext() {
    runner.run(context -> assertThat(context).doesNotHaveBean(dev.engram.MaintenanceRunner.class));
    java.util.concurrent.atomic.AtomicReference<dev.engram.MaintenanceRunner> started =
        new java.util.concurrent.atomic.AtomicReference<>();
    runner.withPropertyValues("engram.maintenance.grants=app/u1,app/u2", "engram.maintenance.interval=1h",
        "engram.embedder=none").run(context -> {
          assertThat(context).hasNotFailed();
          dev.engram.MaintenanceRunner maintenance = context.getBean(dev.engram.MaintenanceRunner.class);
          started.set(maintenance);
          assertThat(maintenance.tasks()).as("the deterministic reasoner extracts but does not curate")
              .containsExactly(dev.engram.MaintenanceReport.Task.FLUSH);
          Engram engram = context.getBean(Engram.class);
          engram.capture(Grants.of("app/u2"), dev.engram.SourceRecord.of("s", "Ana", "We ship on Friday.").id("t1"));
          dev.engram.MaintenanceReport report = maintenance.runNow();
          assertThat(report.scopesFlushed()).containsExactly("app/u2");
          assertThat(report.claims()).isTrue();
        });
    assertThat(started.get().isClosed()).as("closed with the context").isTrue();
    runner.withPropertyValues("engram.maintenance.grants=app/u1", "engram.maintenance.interval=0s",
        "engram.embedder=none").run(context -> assertThat(context).hasFailed().getFailure()
            .hasRootCauseInstanceOf(InvalidInputException.class)
            .rootCause().hasMessageContaining("engram.maintenance.interval"));
  }

  @Test
  void sqliteStoreWritesTheNamedFile(@TempDir Path dir) {
    Path file = dir.resolve("memory.db");
    runner.withPropertyValues("engram.store=sqlite:" + file).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(MemoryStore.class)).isInstanceOf(SqliteMemoryStore.class);
      writesAndReadsBack(context.getBean(Engram.class));
    });
    assertThat(file).exists();
    // a second context on the same file sees what the first wrote
    runner.withPropertyValues("engram.store=sqlite:" + file).run(context ->
        assertThat(context.getBean(Engram.class).read(Grants.of("app/user/u1"), "preferences")).hasSize(1));
  }

  @Test
  void embedderAutoTakesTheModelOfTheStoresVectors(@TempDir Path dir) {
    Path file = dir.resolve("minilm.db");
    try (Engram app = Engram.builder().store(new SqliteMemoryStore(file)).reasoner(new DeterministicReasoner())
        .embedder(new MiniLmEmbedder()).build()) {
      writesAndReadsBack(app);
    }
    runner.withPropertyValues("engram.store=sqlite:" + file, "engram.embedder=auto").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(Embedder.class)).isInstanceOf(MiniLmEmbedder.class);
    });
    runner.withPropertyValues("engram.store=sqlite:" + dir.resolve("new.db"), "engram.embedder=auto").run(context ->
        assertThat(context.getBean(Embedder.class)).as("no vectors yet: the default").isInstanceOf(E5SmallEmbedder.class));
  }

  @Test
  void postgresStoreFromAJdbcUrl() {
    TestPostgres pg = TestPostgres.get();
    String schema = pg.newSchema("starter");
    pg.execute("CREATE SCHEMA " + schema);
    String url = pg.jdbcUrl() + (pg.jdbcUrl().contains("?") ? "&" : "?") + "currentSchema=" + schema;
    runner.withPropertyValues("engram.store=postgres:" + url).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(MemoryStore.class)).isInstanceOf(PostgresMemoryStore.class);
      writesAndReadsBack(context.getBean(Engram.class));
    });
  }

  @Test
  void theLlmReasonerIsConfiguredFromTheEnvironment() {
    runner.withPropertyValues("engram.reasoner=llm").run(context ->
        assertThat(context).hasNotFailed().getBean(Reasoner.class).isInstanceOf(LlmReasoner.class));
  }

  @Test
  void malformedSettingsFailNamingTheProperty() {
    runner.withPropertyValues("engram.store=redis:localhost").run(context ->
        assertThat(context).getFailure().rootCause().isInstanceOf(InvalidInputException.class)
            .hasMessage("engram.store: no store on the class path takes 'redis:'; the stores here take memory,"
                + " postgres:URL, sqlite:FILE"));
    runner.withPropertyValues("engram.store=postgres:localhost").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("engram.store: postgres: needs a URL such as postgres:jdbc:postgresql://"));
    runner.withPropertyValues("engram.reasoner=gpt").run(context ->
        assertThat(context).getFailure().rootCause().hasMessageContaining("engram.reasoner"));
    runner.withPropertyValues("engram.embedder=bert").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("engram.embedder: names no embedder on the class path ('bert'); use auto, e5, minilm, openai,"
                + " none"));
    runner.withPropertyValues("engram.grants-resolver=app/user").run(context ->
        assertThat(context).getFailure().rootCause().hasMessageContaining("{id}"));
  }

  @Test
  void embedderNoneDefinesNoEmbedderAndOpenAiIsConfiguredFromProperties() {
    runner.withPropertyValues("engram.embedder=none").run(context -> {
      assertThat(context).doesNotHaveBean(Embedder.class);
      Engram engram = context.getBean(Engram.class);
      writesAndReadsBack(engram);
      assertThat(engram.search(Grants.of("app/user/u1"), SearchRequest.of("metric")).used()).isEqualTo(SearchMode.FTS);
    });
    runner.withPropertyValues("engram.embedder= None ").run(context -> assertThat(context).doesNotHaveBean(Embedder.class));
    runner.withPropertyValues("engram.embedder=openai", "engram.openai.base-url=http://127.0.0.1:9/v1",
        "engram.openai.model=m", "engram.openai.dimension=8").run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(Embedder.class).profile().dimension()).isEqualTo(8);
        });
  }

  @Test
  void eitherLocalEmbedderCanBeNamedAndMakesSearchHybrid() {
    Map<String, Class<?>> named = Map.of("e5", E5SmallEmbedder.class, "minilm", MiniLmEmbedder.class);
    named.forEach((name, type) -> runner.withPropertyValues("engram.embedder=" + name).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(Embedder.class)).isInstanceOf(type);
      Engram engram = context.getBean(Engram.class);
      Grants grants = Grants.of("app/user/u1");
      engram.write(grants, "Prefers metric units.", WriteOptions.defaults());
      assertThat(engram.search(grants, SearchRequest.of("metric")).used()).isEqualTo(SearchMode.HYBRID);
    }));
  }

  @Test
  void grantsResolverAndVectorStoreFromProperties() {
    runner.withPropertyValues("engram.grants-resolver=app/user/{id}", "engram.vector-store.namespace=app/docs")
        .run(context -> {
          GrantsResolver resolver = context.getBean(GrantsResolver.class);
          assertThat(resolver.resolve("u_7").namespaces()).containsExactly("app/user/u_7");
          org.assertj.core.api.Assertions.assertThatThrownBy(() -> resolver.resolve("u_7/../u_8"))
              .isInstanceOf(InvalidInputException.class);
          EngramVectorStore store = context.getBean(EngramVectorStore.class);
          store.add(List.of(new Document("d1", "The garden report", Map.of("k", "v"))));
          assertThat(context.getBean(Engram.class).list(Grants.of("app/docs"))).hasSize(1);
        });
  }

  @Test
  void agentBeansFollowModePreloadAndTheGrantsResolver() {
    runner.run(context -> assertThat(context).hasSingleBean(MemoryResource.class)
        .doesNotHaveBean(EngramToolCallbackProvider.class).doesNotHaveBean(EngramMemoryAdvisor.class)
        .doesNotHaveBean(ChatMemoryRepository.class));
    runner.withPropertyValues("engram.grants-resolver=app/user/{id}", "engram.mode=read",
        "engram.preload.core=true", "engram.preload.topics=goals", "engram.preload.max-chars=500").run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(EngramMemoryAdvisor.class);
          assertThat(context.getBean(EngramToolCallbackProvider.class).getToolCallbacks())
              .extracting(t -> t.getToolDefinition().name()).containsExactly("memory_read", "memory_search", "memory_boot",
                  "memory_get", "memory_browse", "memory_domains");
          Engram engram = context.getBean(Engram.class);
          engram.write(Grants.of("app/user/u1"), "Run a marathon in spring.", WriteOptions.builder().topicsHint("goals").build());
          String block = context.getBean(MemoryResource.class).bind(Grants.of("app/user/u1")).instructions("");
          assertThat(block).contains("Run a marathon in spring.").contains("read-only");
        });
    runner.withPropertyValues("engram.mode=write-only").run(context ->
        assertThat(context).getFailure().rootCause().hasMessageContaining("engram.mode"));
    runner.withPropertyValues("engram.preload.limit=0").run(context ->
        assertThat(context).getFailure().rootCause().hasMessageContaining("preload.limit"));
  }

  @Test
  void theConfiguredTemplateRefusesTheDefaultConversationIdAndKeepsOneIdAlphabet() {
    runner.withPropertyValues("engram.grants-resolver=app/user/{id}").run(context -> {
      assertThat(context).hasNotFailed();
      GrantsResolver resolver = context.getBean(GrantsResolver.class);
      ChatMemoryRepository repository = context.getBean(ChatMemoryRepository.class);
      assertThatThrownBy(() -> resolver.resolve(ChatMemory.DEFAULT_CONVERSATION_ID))
          .isInstanceOf(InvalidGrantException.class);
      assertThatThrownBy(() -> repository.saveAll(ChatMemory.DEFAULT_CONVERSATION_ID, List.of(new UserMessage("x"))))
          .isInstanceOf(InvalidGrantException.class);
      assertThat(resolver.resolve("u:1")).isEqualTo(Grants.of("app/user/u:1"));
      repository.saveAll("u:1", List.of(new UserMessage("Kept.")));
      assertThat(repository.findByConversationId("u:1")).extracting(m -> m.getText()).containsExactly("Kept.");
      for (String id : List.of("alice@example.com", "_alice", "-alice")) {
        assertThatThrownBy(() -> resolver.resolve(id)).as(id).isInstanceOf(InvalidGrantException.class);
        assertThatThrownBy(() -> repository.findByConversationId(id)).as(id).isInstanceOf(InvalidInputException.class);
      }
      assertThat(context.getBean(Engram.class).sources(Grants.of("app/user/default"), dev.engram.SourceQuery.defaults()))
          .isEmpty();
    });
  }

  @Test
  void chatMemoryOverCapturedSourcesFromTheGrantsResolver(@TempDir Path dir) {
    runner.withPropertyValues("engram.store=sqlite:" + dir.resolve("chat.db"), "engram.grants-resolver=app/user/{id}",
        "engram.capture-user-turns=true").run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(ChatMemoryRepository.class);
          ChatMemoryRepository repository = context.getBean(ChatMemoryRepository.class);
          assertThat(repository).isInstanceOf(EngramChatMemoryRepository.class);
          repository.saveAll("u1", List.of(new UserMessage("I moved to Lisbon."), new AssistantMessage("Noted.")));
          assertThat(repository.findByConversationId("u1")).extracting(m -> m.getText())
              .containsExactly("I moved to Lisbon.", "Noted.");
          Engram engram = context.getBean(Engram.class);
          assertThat(engram.sources(Grants.of("app/user/u1"), dev.engram.SourceQuery.session("u1"))).hasSize(2);
          assertThat(engram.sources(Grants.of("app/user/u2"), dev.engram.SourceQuery.defaults())).isEmpty();

          // the advisor captures user turns when engram.capture-user-turns is set
          org.springframework.ai.chat.client.ChatClient client = org.springframework.ai.chat.client.ChatClient
              .builder(prompt -> new org.springframework.ai.chat.model.ChatResponse(List.of(
                  new org.springframework.ai.chat.model.Generation(new AssistantMessage("Hello.")))))
              .defaultAdvisors(context.getBean(EngramMemoryAdvisor.class)).build();
          client.prompt().user("Prefers tea.").advisors(a -> a.param(
              org.springframework.ai.chat.memory.ChatMemory.CONVERSATION_ID, "u2")).call().content();
          assertThat(engram.sources(Grants.of("app/user/u2"), dev.engram.SourceQuery.defaults()))
              .extracting(dev.engram.CapturedSource::text).containsExactly("Prefers tea.");
        });
    runner.withPropertyValues("engram.grants-resolver=app/user/{id}", "engram.chat-memory.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ChatMemoryRepository.class));
    runner.withPropertyValues("engram.grants-resolver=app/user/{id}")
        .withBean(ChatMemoryRepository.class, org.springframework.ai.chat.memory.InMemoryChatMemoryRepository::new)
        .run(context -> assertThat(context.getBean(ChatMemoryRepository.class))
            .isInstanceOf(org.springframework.ai.chat.memory.InMemoryChatMemoryRepository.class));
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnBeans {
    static final InMemoryMemoryStore STORE = new InMemoryMemoryStore();

    @Bean
    MemoryStore myStore() {
      return STORE;
    }

    @Bean
    GrantsResolver myResolver() {
      return key -> Grants.of("tenant/fixed");
    }
  }

  @Test
  void beansBackOffForTheApplicationsOwn() {
    runner.withUserConfiguration(OwnBeans.class).withPropertyValues("engram.grants-resolver=app/user/{id}")
        .run(context -> {
          assertThat(context).hasSingleBean(MemoryStore.class).hasSingleBean(GrantsResolver.class);
          assertThat(context.getBean(MemoryStore.class)).isSameAs(OwnBeans.STORE);
          assertThat(context.getBean(GrantsResolver.class).resolve("x").namespaces()).containsExactly("tenant/fixed");
        });
    Engram own = Engram.builder().store(new InMemoryMemoryStore()).reasoner(new DeterministicReasoner()).build();
    runner.withBean(Engram.class, () -> own).run(context -> {
      assertThat(context.getBean(Engram.class)).isSameAs(own);
      assertThat(context).doesNotHaveBean(MemoryStore.class).doesNotHaveBean(Reasoner.class);
    });
  }

  /** A store the application keeps open beyond its context (the context does not close it). */
  @Configuration(proxyBeanMethods = false)
  static class KeptOpenStore {
    static final InMemoryMemoryStore STORE = new InMemoryMemoryStore();

    @Bean(destroyMethod = "")
    MemoryStore keptOpen() {
      return STORE;
    }
  }

  @Test
  void theApplicationsOwnStoreIsNeverClosedByTheStarterAndItsOwnIsClosedWithTheContext() {
    runner.withUserConfiguration(KeptOpenStore.class).withPropertyValues("engram.embedder=none")
        .run(context -> writesAndReadsBack(context.getBean(Engram.class)));
    // the context is closed: its Engram was, and the application's store is still open
    assertThat(KeptOpenStore.STORE.headRevision("app/user/u1")).isPositive();
    MemoryStore[] ours = new MemoryStore[1];
    runner.withPropertyValues("engram.embedder=none").run(context -> {
      ours[0] = context.getBean(MemoryStore.class);
      writesAndReadsBack(context.getBean(Engram.class));
    });
    assertThatThrownBy(() -> ours[0].headRevision("app/user/u1")).isInstanceOfSatisfying(StoreException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_CLOSED));
  }

  @Test
  void configurationMetadataDescribesTheProperties() throws IOException {
    String json;
    try (var in = EngramAutoConfiguration.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).isNotNull();
      json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    assertThat(json).contains("\"engram.store\"", "\"engram.grants-resolver\"", "\"engram.embedder\"",
        "\"engram.openai.api-key\"", "\"engram.vector-store.namespace\"", "sqlite:FILE",
        "\"engram.mode\"", "\"engram.preload.topics\"", "\"engram.preload.max-chars\"",
        "\"engram.chat-memory.enabled\"", "\"engram.capture-user-turns\"");
    assertThat(Files.exists(Path.of("target/classes/META-INF/spring-configuration-metadata.json"))).isTrue();
  }
}

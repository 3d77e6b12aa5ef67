/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.StoreException;
import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.embeddings.http.OpenAiCompatibleEmbedder;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.EmbedderOptions;
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbedderSpec;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreOpenOptions;
import dev.engram.spi.StoreProvider;
import dev.engram.spi.StoreSpec;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import dev.engram.test.HashingEmbedder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one parser of store and embedder specs the starter, the command line and the MCP server share, over the
 * providers every store and embedder module registers: spellings, messages, opening, and {@code auto}.
 */
class SpecsTest {
  private static final Grants U1 = Grants.of("app/user/u1");
  private static E5SmallEmbedder e5;
  private static MiniLmEmbedder miniLm;

  @TempDir Path dir;

  @BeforeAll
  static void loadModels() {
    e5 = new E5SmallEmbedder();
    miniLm = new MiniLmEmbedder();
  }

  @Test
  void everyStoreModuleRegistersItsScheme() {
    assertThat(StoreSpec.providers()).extracting(StoreProvider::scheme).containsExactly("memory", "postgres", "sqlite");
    assertThat(StoreSpec.providers()).extracting(StoreProvider::usage).containsExactly("memory", "postgres:URL", "sqlite:FILE");
  }

  @Test
  void specsParseToTheirNormalForm() {
    assertThat(StoreSpec.parse("memory")).isEqualTo(new StoreSpec("memory", ""));
    assertThat(StoreSpec.parse(" MEMORY: ")).isEqualTo(new StoreSpec("memory", ""));
    assertThat(StoreSpec.parse("sqlite:data/m.db")).isEqualTo(new StoreSpec("sqlite", "data/m.db"));
    assertThat(StoreSpec.parse("SQLite:m.db").scheme()).isEqualTo("sqlite");
    String jdbc = "jdbc:postgresql://db.example:5432/app?user=app&password=secret";
    assertThat(StoreSpec.parse("postgres:" + jdbc).location()).isEqualTo(jdbc);
    assertThat(StoreSpec.parse("postgresql:postgresql://h/db?user=u").location()).isEqualTo("jdbc:postgresql://h/db?user=u");
    assertThat(StoreSpec.parse("postgres:postgres://h/db").location()).isEqualTo("jdbc:postgresql://h/db");
    assertThat(StoreSpec.parse("postgres://h/db").location()).isEqualTo("jdbc:postgresql://h/db");
    StoreSpec spec = StoreSpec.parse("postgres:" + jdbc);
    assertThat(StoreSpec.parse(spec.scheme() + ":" + spec.location())).as("a normal form parses to itself").isEqualTo(spec);
  }

  @Test
  void describingASpecShowsNoCredentials() {
    StoreSpec spec = StoreSpec.parse("postgres:jdbc:postgresql://app:secret@db.example:5432/app?password=secret");
    assertThat(spec.describe()).isEqualTo("postgres:jdbc:postgresql://db.example:5432/app");
    assertThat(spec.toString()).isEqualTo(spec.describe()).doesNotContain("secret");
    assertThat(StoreSpec.parse("sqlite:m.db").describe()).isEqualTo("sqlite:m.db");
    assertThat(StoreSpec.parse("memory").describe()).isEqualTo("memory");
  }

  @Test
  void malformedSpecsFailWithOneSetOfMessagesNamingTheSetting() {
    String stores = "the stores here take memory, postgres:URL, sqlite:FILE";
    assertThatThrownBy(() -> StoreSpec.parse("--store", "  ")).isInstanceOf(InvalidInputException.class)
        .hasMessage("--store: is empty; " + stores);
    assertThatThrownBy(() -> StoreSpec.parse("engram.store", "redis://u:hunter2@cache")).isInstanceOf(InvalidInputException.class)
        .hasMessage("engram.store: no store on the class path takes 'redis:'; " + stores)
        .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("engram.store"));
    assertThatThrownBy(() -> StoreSpec.parse("jdbc:postgresql://h/db"))
        .hasMessageStartingWith("store: no store on the class path takes 'jdbc:'; " + stores)
        .hasMessageEndingWith("(a JDBC URL goes after postgres:, e.g. postgres:jdbc:postgresql://localhost/app)");
    assertThatThrownBy(() -> StoreSpec.parse("./memory.db")).hasMessage("store: names no store: write SCHEME:LOCATION; " + stores);
    assertThatThrownBy(() -> StoreSpec.parse("sqlite:")).hasMessage("store: sqlite: needs a file name, e.g. sqlite:memory.db");
    assertThatThrownBy(() -> StoreSpec.parse("memory:x")).hasMessageStartingWith("store: memory takes nothing after it");
    assertThatThrownBy(() -> StoreSpec.parse("postgres:mysql://u:hunter2@h/db"))
        .hasMessage("store: postgres: needs a URL such as postgres:jdbc:postgresql://localhost:5432/app?user=app");
    assertThatThrownBy(() -> new StoreSpec("SQLite", "x")).isInstanceOf(InvalidInputException.class);
  }

  @Test
  void specsOpenTheirStores() {
    try (MemoryStore memory = StoreSpec.parse("memory").open()) {
      assertThat(memory).isInstanceOf(InMemoryMemoryStore.class);
    }
    Path file = dir.resolve("m.db");
    StoreSpec sqlite = StoreSpec.parse("sqlite:" + file);
    assertThatThrownBy(() -> sqlite.open(StoreOpenOptions.builder().mustExist().build()))
        .isInstanceOf(StoreException.class).hasMessageStartingWith("no memory file at " + file);
    assertThat(file).as("nothing created").doesNotExist();
    try (MemoryStore store = sqlite.open()) {
      assertThat(store).isInstanceOf(SqliteMemoryStore.class);
    }
    try (MemoryStore again = sqlite.open(StoreOpenOptions.builder().mustExist().build())) {
      assertThat(again).isInstanceOf(SqliteMemoryStore.class);
    }
    assertThatThrownBy(() -> StoreSpec.parse("sqlite:" + dir.resolve("no/such/dir/m.db")).open())
        .isInstanceOf(StoreException.class).hasMessageContaining("does not exist");
  }

  @Test
  void aPostgresSpecOpensThePostgresStore() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        MemoryStore store = StoreSpec.parse("postgresql:" + pg.getJdbcUrl("postgres", "postgres")).open()) {
      assertThat(store).isInstanceOf(PostgresMemoryStore.class);
      assertThat(store.vectorProfiles()).isEmpty();
    }
  }

  @Test
  void everyEmbedderModuleRegistersItsName() {
    assertThat(EmbedderSpec.providers()).extracting(EmbedderProvider::name).containsExactly("e5", "minilm", "openai");
    assertThat(EmbedderSpec.parse(" E5 ")).isEqualTo(new EmbedderSpec("e5"));
    assertThat(EmbedderSpec.parse("http").name()).as("an alias").isEqualTo("openai");
    assertThat(EmbedderSpec.parse("none").isNone()).isTrue();
    assertThat(EmbedderSpec.parse("auto").isAuto()).isTrue();
    assertThat(EmbedderSpec.parse("none").provider()).isEmpty();
    assertThat(EmbedderSpec.parse("minilm").provider().orElseThrow().profile()).contains(miniLm.profile());
    assertThatThrownBy(() -> EmbedderSpec.parse("--embedder", "bert")).isInstanceOf(InvalidInputException.class)
        .hasMessage("--embedder: names no embedder on the class path ('bert'); use auto, e5, minilm, openai, none");
    assertThatThrownBy(() -> EmbedderSpec.AUTO.provider()).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theHttpEmbedderIsMadeFromItsSettings() {
    EmbedderProvider openai = EmbedderSpec.parse("openai").provider().orElseThrow();
    assertThat(openai.profile()).as("the settings decide it").isEmpty();
    Embedder made = openai.create(EmbedderOptions.builder().setting("base-url", "http://127.0.0.1:9/v1")
        .setting("model", "nomic-embed-text").setting("dimension", "768").setting("api-key", null).build());
    assertThat(made).isInstanceOf(OpenAiCompatibleEmbedder.class);
    assertThat(made.profile().id()).isEqualTo("nomic-embed-text@768");
    assertThatThrownBy(() -> openai.create(EmbedderOptions.defaults())).isInstanceOf(InvalidInputException.class)
        .hasMessage("model: is required by the openai embedder");
    assertThatThrownBy(() -> openai.create(EmbedderOptions.builder().setting("model", "m").setting("dimension", "many")
        .build())).hasMessage("dimension: must be a whole number, was 'many'");
    assertThat(EmbedderOptions.builder().setting("api-key", "sk-secret").build().toString()).doesNotContain("sk-secret");
  }

  @Test
  void autoTakesTheEmbedderWhoseVectorsTheStoreHolds() {
    EmbedderSpec fallback = EmbedderSpec.parse("e5");
    try (MemoryStore store = new InMemoryMemoryStore()) {
      assertThat(name(EmbedderSpec.AUTO.resolve(store, List.of(), fallback))).as("no vectors: the fallback").isEqualTo("e5");
      assertThat(EmbedderSpec.AUTO.resolve(store, List.of(), EmbedderSpec.NONE)).isEmpty();

      write(store, miniLm, "Keeps the bicycle in the blue shed.");
      assertThat(store.vectorProfiles()).containsExactly(miniLm.profile().id());
      assertThat(name(EmbedderSpec.AUTO.resolve(store, U1.visibleScopes(), fallback))).isEqualTo("minilm");
      assertThat(name(EmbedderSpec.parse("e5").resolve(store, List.of(), fallback))).as("a named spec stays").isEqualTo("e5");

      // a second model covers fewer versions: the one covering the most wins, with scopes to weigh them
      write(store, e5, "Runs on Sundays.");
      assertThat(store.vectorProfiles()).containsExactlyInAnyOrder(miniLm.profile().id(), e5.profile().id());
      write(store, miniLm, "Drinks tea, not coffee.");
      assertThat(name(EmbedderSpec.AUTO.resolve(store, U1.visibleScopes(), fallback))).isEqualTo("minilm");
      assertThat(name(EmbedderSpec.AUTO.resolve(store, List.of(), fallback))).as("unweighed: the fallback first")
          .isEqualTo("e5");
    }
    try (MemoryStore foreign = new InMemoryMemoryStore()) {
      write(foreign, new HashingEmbedder(), "Vectors of a model no provider makes.");
      assertThat(name(EmbedderSpec.AUTO.resolve(foreign, U1.visibleScopes(), fallback))).isEqualTo("e5");
    }
    assertThatThrownBy(() -> EmbedderSpec.AUTO.resolve(new InMemoryMemoryStore(), List.of(), EmbedderSpec.AUTO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String name(Optional<EmbedderProvider> provider) {
    return provider.map(EmbedderProvider::name).orElse("none");
  }

  private static void write(MemoryStore store, Embedder embedder, String content) {
    Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).embedder(embedder).build();
    try (engram) {
      engram.write(U1, content);
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Citation;
import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.PreparedContext;
import dev.engram.SearchMode;
import dev.engram.SearchResult;
import dev.engram.WriteOptions;
import dev.engram.cli.EngramJar.Result;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a newcomer meets it, run as the packaged jar: {@code --help} on every subcommand, the
 * shared options before or after the subcommand, the scopes below a grant, and the same memory the
 * application gets: the CLI embeds with the model whose vectors the store holds, and {@code context} prints
 * what {@code prepareContext} gives the application.
 */
class CliConventionsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GRANT = "app/user/u1";

  @TempDir Path dir;

  private Result ok(String... args) {
    Result r = EngramJar.run(dir, args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  private String store() {
    return "sqlite:" + dir.resolve("memory.db");
  }

  /** The subcommands {@code engram --help} lists. */
  private List<String> subcommands() {
    List<String> names = new ArrayList<>();
    boolean inCommands = false;
    for (String line : ok("--help").out().lines().toList()) {
      if (line.equals("Commands:")) {
        inCommands = true;
      } else if (inCommands && line.isBlank()) {
        break;
      } else if (inCommands && line.startsWith("  ") && !line.startsWith("    ")) {
        names.add(line.strip().split("\\s+")[0]);
      }
    }
    return names;
  }

  @Test
  void everySubcommandAnswersHelp() {
    List<String> commands = subcommands();
    assertThat(commands).contains("scopes", "ls", "search", "context", "write", "reindex", "doctor", "console", "help")
        .hasSizeGreaterThan(15);
    for (String command : commands) {
      Result r = EngramJar.run(dir, command, "--help");
      assertThat(r.exitCode()).as(command + " --help\n" + r).isZero();
      assertThat(r.out()).as(command + " --help").contains("Usage: engram " + command);
      if (!command.equals("help")) {
        assertThat(r.out()).as("the shared options are listed for " + command).contains("--store=STORE")
            .contains("--grant=NS").contains("--embedder=NAME").contains("--json");
      }
    }
    assertThat(ok("search", "-h").out()).startsWith("Usage: engram search");
    assertThat(ok("help", "ls").out()).startsWith("Usage: engram ls");
    assertThat(dir.resolve("memory.db")).as("help opens no store").doesNotExist();
  }

  @Test
  void theSharedOptionsStandBeforeOrAfterTheSubcommand() throws Exception {
    ok("--store", store(), "--grant", GRANT, "write", "--topic", "travel", "Flies to Lisbon every March.");
    ok("write", "--store", store(), "Does not eat mushrooms.", "-g", GRANT);
    ok("-g", GRANT, "write", "--store=" + store(), "Keeps a bike in the hallway.");

    String before = ok("--store", store(), "-g", GRANT, "--json", "ls").out();
    String after = ok("ls", "--store", store(), "-g", GRANT, "--json").out();
    String mixed = ok("--json", "-g", GRANT, "ls", "--store", store()).out();
    assertThat(JSON.readTree(before)).hasSize(3);
    assertThat(after).isEqualTo(before);
    assertThat(mixed).isEqualTo(before);

    // grants given on both sides add up
    ok("--store", store(), "-g", "app/user/u2", "write", "Someone else's fact.");
    assertThat(JSON.readTree(ok("-g", GRANT, "ls", "-g", "app/user/u2", "--store", store(), "--json").out())).hasSize(4);

    Result unknown = EngramJar.run(dir, "--frobnicate", "ls", "--store", store(), "-g", GRANT);
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unknown option: '--frobnicate'");
  }

  @Test
  void scopesBelowAGrantAreListedForTheOperator() throws Exception {
    ok("write", "--store", store(), "-g", GRANT, "First fact.");
    ok("write", "--store", store(), "-g", "app/team/blue", "Team fact.");

    Result underApp = ok("scopes", "--store", store(), "-g", "app");
    assertThat(underApp.out()).startsWith("no memory visible to [app]\n")
        .contains("2 scopes lie below app, out of sight").contains("--below app");
    Result below = ok("scopes", "--store", store(), "--below", "app");
    assertThat(below.out()).contains("app/team/blue").contains(GRANT);
    JsonNode all = JSON.readTree(ok("scopes", "--store", store(), "--json").out());
    assertThat(all.findValuesAsText("scope")).containsExactly("app/team/blue", GRANT);
    assertThat(JSON.readTree(ok("scopes", "--store", store(), "--below", "app/team", "--json").out())
        .findValuesAsText("scope")).containsExactly("app/team/blue");
  }

  @Test
  void searchPrintsScoresRanksAndCosines() throws Exception {
    ok("write", "--store", store(), "-g", GRANT, "Flies to Lisbon every March.");
    ok("write", "--store", store(), "-g", GRANT, "Lisbon has seven hills.");
    Result fts = ok("search", "Lisbon", "--store", store(), "-g", GRANT, "--mode", "fts");
    List<String> rows = fts.out().lines().skip(2).toList();
    assertThat(rows).hasSize(2);
    for (String row : rows) {
      assertThat(row).containsPattern("^\\d  \\S+ +fts#\\d ").doesNotContain(" 0.0000 ");
    }
    JsonNode hybrid = JSON.readTree(ok("search", "Lisbon", "--store", store(), "-g", GRANT, "--json").out());
    JsonNode first = hybrid.get("hits").get(0);
    assertThat(first.get("ftsRank").asInt()).isPositive();
    assertThat(first.get("vectorRank").asInt()).isPositive();
    assertThat(first.get("cosine").asDouble()).isBetween(-1.0, 1.0);
    assertThat(ReadCommands.score(0.00001234)).isEqualTo("1.234e-05");
    assertThat(ReadCommands.score(0.5)).isEqualTo("0.5000");
  }

  /**
   * The application embeds with MiniLM. Without {@code --embedder} the command line takes the store's model,
   * so its correction keeps the application's semantic search whole, and its context is the application's.
   */
  @Test
  void theCommandLineUsesTheApplicationsEmbedderAndGivesItsContext() throws Exception {
    Path file = dir.resolve("memory.db");
    Grants grants = Grants.of(GRANT);
    String question = "which city is she in";
    try (Engram app = application(file)) {
      app.write(grants, "She moved to Lisbon in May.", WriteOptions.builder().topicsHint("home").build());
      app.write(grants, "Works at a bakery near the river.", WriteOptions.builder().topicsHint("work").build());
      app.write(grants, "Her sister lives in Porto.", WriteOptions.builder().topicsHint("family").build());
      app.write(grants, "Prefers trains to planes.", WriteOptions.builder().topicsHint("travel").build());
    }
    String id = JSON.readTree(ok("ls", "--store", store(), "-g", GRANT, "--json").out()).get(0).get("entryId").asText();
    ok("correct", id, "She moved to Lisbon in June.", "--store", store(), "-g", GRANT);

    PreparedContext expected;
    try (Engram app = application(file)) {
      SearchResult found = app.search(grants, question);
      assertThat(found.used()).as(found.toString()).isEqualTo(SearchMode.HYBRID);
      assertThat(found.warnings()).as("the command line wrote MiniLM vectors").isEmpty();
      assertThat(found.hits()).isNotEmpty();
      expected = app.prepareContext(grants, ContextRequest.of(question, ContextRequest.DEFAULT_MAX_BYTES));
    }
    assertThat(expected.citations()).isNotEmpty();

    JsonNode cli = JSON.readTree(ok("context", question, "--store", store(), "-g", GRANT, "--json").out());
    assertThat(cli.get("status").asText()).isEqualToIgnoringCase(expected.status().name());
    assertThat(cli.get("content").asText()).isEqualTo(expected.content());
    assertThat(texts(cli.get("citations")))
        .containsExactlyElementsOf(expected.citations().stream().map(Citation::render).toList());
    JsonNode stats = JSON.readTree(ok("stats", "--store", store(), "--json").out());
    assertThat(stats.get("vectorsMissing").get(new MiniLmEmbedder().profile().id()).asInt())
        .as("the correction has MiniLM vectors too").isZero();
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static Engram application(Path file) {
    return Engram.builder().store(new SqliteMemoryStore(file)).reasoner(new DeterministicReasoner())
        .embedder(new MiniLmEmbedder()).build();
  }
}

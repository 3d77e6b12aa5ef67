/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.cli.EngramJar.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar as a child process on a real SQLite file: stdout, stderr and exit codes. */
class CliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GRANT = "app/user/u1";

  @TempDir Path dir;

  private Result engram(String... args) {
    return EngramJar.run(dir, args);
  }

  private Result ok(String... args) {
    Result r = engram(args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  private static JsonNode json(Result r) throws Exception {
    return JSON.readTree(r.out());
  }

  private static void oneLineError(Result r, String contains) {
    assertThat(r.err().strip()).as(r.toString()).startsWith("engram: ").contains(contains).doesNotContain("\n\tat ")
        .doesNotContain("Exception");
    assertThat(r.err().strip().lines()).hasSize(1);
  }

  private String store() {
    return "--store=sqlite:" + dir.resolve("memory.db");
  }

  @Test
  void writesCorrectsRollsBackAndShowsHistory() throws Exception {
    Result w = ok("write", store(), "--grant", GRANT, "--topic", "preferences", "Prefers metric units.");
    assertThat(w.out()).startsWith("appended ").contains("in app/user/u1 [preferences] revision 1");
    assertThat(ok("write", store(), "-g", GRANT, "--topic", "preferences", "Prefers  metric units.").out())
        .as("canonical duplicate").startsWith("deduped ");

    JsonNode entries = json(ok("ls", store(), "-g", GRANT, "--json"));
    assertThat(entries).hasSize(1);
    String id = entries.get(0).get("entryId").asText();

    assertThat(ok("correct", store(), "-g", GRANT, id, "Prefers imperial units.", "--reason", "user said so").out())
        .startsWith("corrected " + id + " v2 ");
    Result history = ok("history", store(), "-g", GRANT, id);
    assertThat(history.out().lines().toList()).hasSize(3);
    assertThat(history.out()).contains("create").contains("update").contains("user said so")
        .contains("version 1→2");

    JsonNode events = json(ok("history", store(), "-g", GRANT, id, "--json"));
    assertThat(events).hasSize(2);
    String createEvent = events.get(0).get("eventId").asText();
    assertThat(events.get(0).get("kind").asText()).isEqualToIgnoringCase("create");

    assertThat(ok("rollback", store(), "-g", GRANT, createEvent).out()).startsWith("rolled back " + id + " v3 ");
    Result show = ok("show", store(), "-g", GRANT, id);
    assertThat(show.out()).contains("3 (").endsWith("Prefers metric units.\n");
    assertThat(json(ok("show", store(), "-g", GRANT, id, "--json")).get("content").asText())
        .isEqualTo("Prefers metric units.");

    // a retire event cannot be rolled back to
    ok("retire", store(), "-g", GRANT, id);
    JsonNode after = json(ok("history", store(), "-g", GRANT, id, "--json"));
    String retireEvent = after.get(after.size() - 1).get("eventId").asText();
    Result refused = engram("rollback", store(), "-g", GRANT, retireEvent);
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
    oneLineError(refused, "only CREATE, UPDATE and ROLLBACK events can be rolled back to");
  }

  @Test
  void reindexEmbedsWhatAWriterWithoutTheEmbedderLeftOut() throws Exception {
    ok("write", store(), "-g", GRANT, "--topic", "travel", "Flies to Lisbon every March.", "--embedder", "none");
    ok("write", store(), "-g", GRANT, "--topic", "food", "Does not eat mushrooms.", "--embedder", "none");
    assertThat(ok("reindex", store(), "-g", GRANT).out()).isEqualTo("embedded 2 versions\n");
    assertThat(json(ok("reindex", store(), "-g", GRANT, "--json")).get("embedded").asInt()).isZero();
    Result none = engram("reindex", store(), "-g", GRANT, "--embedder", "none");
    assertThat(none.exitCode()).as("reindex without an embedder").isEqualTo(1);
    oneLineError(none, "embedder");
  }

  @Test
  void searchAndContextFindWhatWasWritten() throws Exception {
    ok("write", store(), "-g", GRANT, "--topic", "travel", "Flies to Lisbon every March for the conference.");
    ok("write", store(), "-g", GRANT, "--topic", "food", "Does not eat mushrooms.");

    // the writes were embedded with e5, the default: auto search is hybrid
    Result search = ok("search", store(), "-g", GRANT, "Lisbon conference");
    assertThat(search.out()).startsWith("mode hybrid (asked for auto); ").containsPattern("fts#\\d\\+vector#\\d")
        .contains("Flies to Lisbon").doesNotContain("fell back");
    assertThat(search.err()).as("the tokenizer's GPU probe and length notice stay out of stderr").isEmpty();
    JsonNode hits = json(ok("search", store(), "-g", GRANT, "mushrooms", "--mode", "fts", "--json"));
    assertThat(hits.get("used").asText()).isEqualTo("fts");
    assertThat(hits.get("hits")).hasSize(1);
    assertThat(hits.get("hits").get(0).get("matchedBy").get(0).asText()).isEqualTo("fts");
    // no word in common: only the vectors find it
    JsonNode meaning = json(ok("search", store(), "-g", GRANT, "which food does the user avoid?", "--mode", "vector", "--json"));
    assertThat(meaning.get("used").asText()).isEqualTo("vector");
    assertThat(meaning.get("hits").get(0).get("entry").get("content").asText()).isEqualTo("Does not eat mushrooms.");

    // without an embedder, search runs on full text and says so; an explicit vector search is refused
    Result words = ok("search", store(), "-g", GRANT, "Lisbon conference", "--embedder", "none");
    assertThat(words.out()).startsWith("mode fts (asked for auto); fell back: ").contains("1 hit")
        .contains("Flies to Lisbon").doesNotContain("mushrooms");
    Result vector = engram("search", store(), "-g", GRANT, "mushrooms", "--mode", "vector", "--embedder", "none");
    assertThat(vector.exitCode()).as("an explicit vector search without an embedder").isEqualTo(1);
    oneLineError(vector, "vector");
    Result unknown = engram("search", store(), "-g", GRANT, "mushrooms", "--embedder", "bert");
    assertThat(unknown.exitCode()).isEqualTo(2);
    oneLineError(unknown, "--embedder: names no embedder on the class path ('bert'); use auto, e5, minilm, none");

    // the context is searched the same way: e5 finds both entries related enough, full text only the trip
    Result context = ok("context", store(), "-g", GRANT, "Lisbon trip", "--bytes", "700");
    assertThat(context.out()).contains("UNTRUSTED MEMORY").contains("Flies to Lisbon")
        .containsPattern("ready: \\d+ of 700 bytes, 2 citations\n$");
    Result wordsOnly = ok("context", store(), "-g", GRANT, "Lisbon trip", "--bytes", "700", "--embedder", "none");
    assertThat(wordsOnly.out()).contains("Flies to Lisbon").doesNotContain("mushrooms")
        .containsPattern("ready: \\d+ of 700 bytes, 1 citation\n$");
    JsonNode ctx = json(ok("context", store(), "-g", GRANT, "Lisbon trip", "--json"));
    assertThat(ctx.get("contentBytes").asInt()).isEqualTo(
        ctx.get("content").asText().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
  }

  @Test
  void scopesStatsAndDoctorReportTheStore() throws Exception {
    ok("write", store(), "-g", GRANT, "--topic", "a", "First fact.");
    ok("write", store(), "-g", "app/user/u2", "--topic", "b", "Someone else's fact.");

    Result scopes = ok("scopes", store(), "-g", GRANT);
    assertThat(scopes.out()).contains("app/user/u1").doesNotContain("app/user/u2");
    JsonNode stats = json(ok("stats", store(), "--json"));
    assertThat(stats.get("scopes").asInt()).as("store-wide without --grant").isEqualTo(2);
    assertThat(stats.get("active").asInt()).isEqualTo(2);

    Result doctor = ok("doctor", store());
    assertThat(doctor.out())
        .contains("OK    schema     schema version " + dev.engram.store.sqlite.SqliteMemoryStore.schemaVersion())
        .contains("OK    integrity")
        .contains("OK    versions").contains("2 topic(s) with uncurated writes").endsWith("healthy\n");

    // break a version chain behind the library's back: two current versions of one entry
    String id = json(ok("ls", store(), "-g", GRANT, "--json")).get(0).get("entryId").asText();
    ok("correct", store(), "-g", GRANT, id, "First fact, corrected.");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("memory.db"));
        Statement st = c.createStatement()) {
      dev.engram.store.sqlite.SqliteMemoryStore.registerSqlFunctions(c); // the status triggers keep the full-text index
      st.executeUpdate("UPDATE versions SET status = 'RETIRED', superseded_by = NULL WHERE version = 1");
    }
    Result sick = engram("doctor", store(), "--json");
    assertThat(sick.exitCode()).as(sick.toString()).isEqualTo(1);
    JsonNode report = json(sick);
    assertThat(report.get("healthy").asBoolean()).isFalse();
    assertThat(report.get("checks").toString()).contains("has 2 current (active or retired) versions");
  }

  @Test
  void exportImportAndEraseMoveAndRemoveMemory() throws Exception {
    ok("write", store(), "-g", GRANT, "--topic", "a", "Kept across stores.");
    Path export = dir.resolve("export.jsonl");
    assertThat(ok("export", store(), "-g", GRANT, export.toString()).out()).startsWith("exported 1 scope: 1 versions");
    assertThat(Files.readAllLines(export)).isNotEmpty();

    String other = "--store=sqlite:" + dir.resolve("other.db");
    assertThat(ok("import", other, "-g", GRANT, export.toString(), "--dry-run").out()).startsWith("would import 1 scope");
    assertThat(dir.resolve("other.db")).as("a dry run creates nothing").doesNotExist();
    assertThat(ok("import", other, "-g", GRANT, export.toString()).out()).startsWith("imported 1 scope");
    assertThat(ok("ls", other, "-g", GRANT).out()).contains("Kept across stores.");

    Result unconfirmed = engram("erase", store(), "-g", GRANT, GRANT);
    assertThat(unconfirmed.exitCode()).isEqualTo(2);
    oneLineError(unconfirmed, "add --yes to confirm");
    assertThat(ok("ls", store(), "-g", GRANT).out()).as("nothing erased without --yes").contains("Kept across stores.");

    assertThat(ok("erase", store(), "-g", GRANT, GRANT, "--yes").out()).isEqualTo("erased 1 entry from app/user/u1\n");
    assertThat(ok("ls", store(), "-g", GRANT, "--all").out()).isEqualTo("no entries\n");
  }

  @Test
  void importReplaceRestoresABackupAndNeedsYes() throws Exception {
    ok("write", store(), "-g", GRANT, "--topic", "a", "Kept in the backup.");
    Path backup = dir.resolve("backup.jsonl");
    ok("export", store(), "-g", GRANT, backup.toString());
    ok("write", store(), "-g", GRANT, "--topic", "a", "Written after the backup.");

    Result plain = engram("import", store(), "-g", GRANT, backup.toString());
    assertThat(plain.exitCode()).as(plain.toString()).isNotZero();
    assertThat(plain.err()).contains("already exists in the target store");

    Result unconfirmed = engram("import", store(), "-g", GRANT, backup.toString(), "--replace");
    assertThat(unconfirmed.exitCode()).isEqualTo(2);
    oneLineError(unconfirmed, "Add --yes to confirm");
    assertThat(ok("ls", store(), "-g", GRANT).out()).as("nothing replaced without --yes")
        .contains("Kept in the backup.").contains("Written after the backup.");

    assertThat(ok("import", store(), "-g", GRANT, backup.toString(), "--replace", "--dry-run").out())
        .startsWith("would restore 1 scope: 1 versions").contains("would replace 2 active entries");
    assertThat(ok("ls", store(), "-g", GRANT).out()).contains("Written after the backup.");

    assertThat(ok("import", store(), "-g", GRANT, backup.toString(), "--replace", "--yes").out())
        .startsWith("restored 1 scope: 1 versions").contains("replaced 2 active entries");
    assertThat(ok("ls", store(), "-g", GRANT, "--all").out()).contains("Kept in the backup.")
        .doesNotContain("Written after the backup.");
    JsonNode again = json(ok("import", store(), "-g", GRANT, backup.toString(), "--replace", "--yes", "--json"));
    assertThat(again.get("replaced").asInt()).isEqualTo(1);
  }

  @Test
  void userErrorsAreOneLineWithDocumentedExitCodes() throws Exception {
    Result missing = engram("ls", store(), "-g", GRANT);
    assertThat(missing.exitCode()).as("no such file").isEqualTo(3);
    oneLineError(missing, "no memory file at");
    assertThat(dir.resolve("memory.db")).as("a read creates no file").doesNotExist();

    Result escape = engram("write", store(), "-g", GRANT, "Something \u001b[31mred\u001b[0m");
    assertThat(escape.exitCode()).isEqualTo(2);
    oneLineError(escape, "control character U+001B");
    ok("write", store(), "-g", GRANT, "First line\nsecond line.");
    assertThat(ok("ls", store(), "-g", GRANT).out()).as("one row per entry, line breaks flattened")
        .contains("First line second line.").hasLineCount(2);

    Result notFound = engram("show", store(), "-g", GRANT, "0123-not-there");
    assertThat(notFound.exitCode()).isEqualTo(1);
    oneLineError(notFound, "no entry or version 0123-not-there visible to [app/user/u1]");

    Result badGrant = engram("ls", store(), "-g", "app/../etc");
    assertThat(badGrant.exitCode()).isEqualTo(2);
    oneLineError(badGrant, "grants[0]");

    Result noGrant = engram("ls", store());
    assertThat(noGrant.exitCode()).isEqualTo(2);
    oneLineError(noGrant, "--grant is required");

    Result badOption = engram("ls", store(), "-g", GRANT, "--frobnicate");
    assertThat(badOption.exitCode()).isEqualTo(2);
    assertThat(badOption.err()).contains("Unknown option: '--frobnicate'");

    Result badStore = engram("ls", "--store=mysql:x", "-g", GRANT);
    assertThat(badStore.exitCode()).isEqualTo(2);
    oneLineError(badStore, "--store: no store on the class path takes 'mysql:'; the stores here take memory, postgres:URL,"
        + " sqlite:FILE");

    Result otherTenant = engram("ls", store(), "-g", "app/user/u2");
    assertThat(otherTenant.exitCode()).isZero();
    assertThat(otherTenant.out()).isEqualTo("no entries\n");

    Result help = ok("--help");
    assertThat(help.out()).contains("Exit codes:").contains("console").contains("doctor");
  }
}

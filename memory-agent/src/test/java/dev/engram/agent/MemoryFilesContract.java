/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The memory-tool protocol as {@link MemoryFiles} speaks it, on one store: every command's success and
 * error text, traversal, the str_replace and insert edge cases, read-only views, history and rollback.
 */
abstract class MemoryFilesContract {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Grants ALICE = Grants.of("app/team/alice");
  static final Grants BOB = Grants.of("app/team/bob");
  static final String LISTING = "Here're the files and directories up to 2 levels deep in ";
  static final String LISTING_TAIL = ", excluding hidden items and node_modules:";

  Engram engram;
  MemoryFiles files;

  protected abstract MemoryStore createStore();

  @BeforeEach
  void open() {
    engram = Engram.builder().store(createStore()).reasoner(new DeterministicReasoner()).build();
    files = MemoryFiles.bind(engram, ALICE);
  }

  @AfterEach
  void close() {
    engram.close();
  }

  static String ok(FileResult r) {
    assertThat(r.isError()).as(r.text()).isFalse();
    assertThat(r.error()).isNull();
    return r.text();
  }

  static String failed(FileResult r, FileError error) {
    assertThat(r.error()).as(r.text()).isEqualTo(error);
    assertThat(r.isError()).isTrue();
    assertThat(r.contentHash()).isNull();
    assertThat(r.text()).doesNotContain("app/team").doesNotContain("Exception").doesNotContain("\tat ");
    return r.text();
  }

  /** Every active entry of the store's scopes as (path, content) lines, to prove a refusal changed nothing. */
  List<String> state() {
    List<String> out = new ArrayList<>();
    for (MemoryEntry e : engram.list(Grants.of("app/team/alice", "app/team/bob"),
        ListOptions.builder().includeSuperseded(true).includeRetired(true).build())) {
      out.add(e.scope() + " " + e.path() + " v" + e.version() + " " + e.status() + " " + e.content());
    }
    return out;
  }

  // ---- view

  @Test
  void viewOfTheEmptyRootListsOnlyTheRoot() {
    assertThat(ok(files.view("/memories"))).isEqualTo(LISTING + "/memories" + LISTING_TAIL + "\n0\t/memories");
    assertThat(ok(files.view("/memories/"))).isEqualTo(LISTING + "/memories" + LISTING_TAIL + "\n0\t/memories");
  }

  @Test
  void viewListsTwoLevelsDeepWithSizesAndLeavesHiddenItemsOut() {
    ok(files.create("/memories/a.md", "12345"));
    ok(files.create("/memories/projects/x.md", "1234567890"));
    ok(files.create("/memories/projects/deep/y.md", "123"));
    ok(files.create("/memories/projects/deep/more/z.md", "1"));
    ok(files.create("/memories/.hidden.md", "secret"));
    ok(files.create("/memories/node_modules/pkg.md", "module"));
    ok(files.create("/memories/big.md", "x".repeat(3000)));
    assertThat(ok(files.view("/memories"))).isEqualTo(LISTING + "/memories" + LISTING_TAIL
        + "\n3.0K\t/memories"
        + "\n5\t/memories/a.md"
        + "\n2.9K\t/memories/big.md"
        + "\n14\t/memories/projects"
        + "\n4\t/memories/projects/deep"
        + "\n10\t/memories/projects/x.md");
    assertThat(ok(files.view("/memories/projects"))).isEqualTo(LISTING + "/memories/projects" + LISTING_TAIL
        + "\n14\t/memories/projects"
        + "\n4\t/memories/projects/deep"
        + "\n1\t/memories/projects/deep/more"
        + "\n3\t/memories/projects/deep/y.md"
        + "\n10\t/memories/projects/x.md");
    assertThat(ok(files.view("/memories/.hidden.md"))).endsWith("     1\tsecret");
  }

  @Test
  void viewOfAFileNumbersItsLinesSixWideAndReturnsItsHash() {
    ok(files.create("/memories/notes.md", "first line\nsecond line\nthird line"));
    FileResult r = files.view("/memories/notes.md");
    assertThat(ok(r)).isEqualTo("Here's the content of /memories/notes.md with line numbers:\n"
        + "     1\tfirst line\n     2\tsecond line\n     3\tthird line");
    assertThat(r.contentHash()).matches("[0-9a-f]{64}")
        .isEqualTo(files.entry("/memories/notes.md").orElseThrow().contentHash());
  }

  @Test
  void viewRangeIsOneBasedWithMinusOneForTheEnd() {
    ok(files.create("/memories/n.md", "a\nb\nc\nd"));
    assertThat(ok(files.view("/memories/n.md", ViewRange.of(2, 3))))
        .isEqualTo("Here's the content of /memories/n.md with line numbers:\n     2\tb\n     3\tc");
    assertThat(ok(files.view("/memories/n.md", ViewRange.of(3, ViewRange.TO_END))))
        .isEqualTo("Here's the content of /memories/n.md with line numbers:\n     3\tc\n     4\td");
    assertThat(ok(files.view("/memories/n.md", ViewRange.of(4, 4)))).endsWith("\n     4\td");
    assertThat(failed(files.view("/memories/n.md", ViewRange.of(0, 2)), FileError.INVALID_LINE))
        .isEqualTo("Error: Invalid `view_range` [0, 2]: the first line must be within the file's lines [1, 4]");
    assertThat(failed(files.view("/memories/n.md", ViewRange.of(2, 9)), FileError.INVALID_LINE))
        .isEqualTo("Error: Invalid `view_range` [2, 9]: the last line must be -1 (the end) or within [2, 4]");
    assertThat(failed(files.view("/memories/n.md", ViewRange.of(3, 2)), FileError.INVALID_LINE)).contains("[3, 4]");
    assertThat(failed(files.view("/memories", ViewRange.of(1, 2)), FileError.WRONG_KIND))
        .isEqualTo("Error: The path /memories is a directory; view_range is only for files");
  }

  @Test
  void viewOfAMissingPathSaysItDoesNotExist() {
    assertThat(failed(files.view("/memories/nothing.md"), FileError.NOT_FOUND))
        .isEqualTo("The path /memories/nothing.md does not exist. Please provide a valid path.");
  }

  // ---- create

  @Test
  void createWritesANewFileAsAPathEntryOfTheScope() {
    FileResult r = files.create("/memories/prefs/units.md", "Prefers metric units.");
    assertThat(ok(r)).isEqualTo("File created successfully at: /memories/prefs/units.md");
    MemoryEntry e = files.entry("/memories/prefs/units.md").orElseThrow();
    assertThat(e.scope()).isEqualTo("app/team/alice");
    assertThat(e.path()).isEqualTo("memories://prefs/units.md");
    assertThat(e.topics()).contains(MemoryFiles.TOPIC);
    assertThat(e.source()).isEqualTo(MemoryResource.DEFAULT_SOURCE);
    assertThat(r.contentHash()).isEqualTo(e.contentHash());
  }

  @Test
  void createRefusesAnExistingFileADirectoryAndAPlaceBelowAFile() {
    ok(files.create("/memories/a.md", "one"));
    ok(files.create("/memories/dir/b.md", "two"));
    List<String> before = state();
    assertThat(failed(files.create("/memories/a.md", "other"), FileError.ALREADY_EXISTS))
        .isEqualTo("Error: File /memories/a.md already exists");
    assertThat(failed(files.create("/memories/dir", "x"), FileError.ALREADY_EXISTS))
        .isEqualTo("Error: /memories/dir already exists as a directory");
    assertThat(failed(files.create("/memories/a.md/c.md", "x"), FileError.WRONG_KIND))
        .isEqualTo("Error: /memories/a.md is a file, so /memories/a.md/c.md cannot be placed below it");
    assertThat(failed(files.create("/memories", "x"), FileError.WRONG_KIND)).startsWith("Error: /memories is the");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void contentOverTheEnginesLimitIsRefusedNamingTheLimit() {
    String text = failed(files.create("/memories/big.md", "word ".repeat(2000)), FileError.INVALID_ARGUMENT);
    assertThat(text).startsWith("Error: The file text was refused by memory's limits").contains("8192");
    assertThat(failed(files.create("/memories/empty.md", " \n "), FileError.INVALID_ARGUMENT))
        .startsWith("Error: The file text would be empty");
    assertThat(state()).isEmpty();
  }

  @Test
  void textIsStoredNormalizedAndTheResultSaysSo() {
    FileResult r = files.create("/memories/n.md", "# Title\n\n  - item   one\n");
    assertThat(ok(r)).isEqualTo("File created successfully at: /memories/n.md\nNote: memory stored the text "
        + "otherwise than given (it keeps text normalized: no blank lines, lines trimmed, runs of spaces made one); "
        + "the file now has 2 lines. View it to see them as stored.");
    assertThat(ok(files.view("/memories/n.md"))).endsWith("     1\t# Title\n     2\t- item one");
    assertThat(ok(files.create("/memories/plain.md", "already normal"))).doesNotContain("Note:");
  }

  // ---- str_replace

  @Test
  void strReplaceWithOneMatchEditsAndShowsASnippet() {
    ok(files.create("/memories/n.md", "l1\nl2\nl3\nl4\nl5\nl6\nmeeting on Tuesday\nl8\nl9\nl10\nl11\nl12"));
    FileResult r = files.strReplace("/memories/n.md", "Tuesday", "Wednesday");
    assertThat(ok(r)).isEqualTo("The memory file has been edited. Here's a snippet of /memories/n.md with line "
        + "numbers:\n     3\tl3\n     4\tl4\n     5\tl5\n     6\tl6\n     7\tmeeting on Wednesday\n     8\tl8\n"
        + "     9\tl9\n    10\tl10\n    11\tl11");
    assertThat(files.entry("/memories/n.md").orElseThrow().content()).contains("meeting on Wednesday")
        .doesNotContain("Tuesday");
    assertThat(r.contentHash()).isEqualTo(files.entry("/memories/n.md").orElseThrow().contentHash());
  }

  @Test
  void strReplaceWithNoMatchOrSeveralChangesNothingAndSaysWhich() {
    ok(files.create("/memories/n.md", "tea at five\ncoffee at nine\ntea at noon"));
    List<String> before = state();
    assertThat(failed(files.strReplace("/memories/n.md", "juice", "milk"), FileError.NO_MATCH))
        .isEqualTo("No replacement was performed, old_str `juice` did not appear verbatim in /memories/n.md.");
    assertThat(failed(files.strReplace("/memories/n.md", "tea", "milk"), FileError.MULTIPLE_MATCHES))
        .isEqualTo("No replacement was performed. Multiple occurrences of old_str `tea` in lines: 1, 3. Please "
            + "ensure it is unique");
    assertThat(failed(files.strReplace("/memories/n.md", "", "x"), FileError.INVALID_ARGUMENT))
        .startsWith("Error: old_str is empty");
    assertThat(failed(files.strReplace("/memories/none.md", "a", "b"), FileError.NOT_FOUND))
        .isEqualTo("Error: The path /memories/none.md does not exist. Please provide a valid path.");
    ok(files.create("/memories/d/f.md", "x"));
    assertThat(failed(files.strReplace("/memories/d", "a", "b"), FileError.WRONG_KIND))
        .isEqualTo("Error: The path /memories/d is a directory; str_replace edits a file");
    assertThat(state()).hasSize(before.size() + 1).containsAll(before);
  }

  @Test
  void strReplaceAcrossLinesAndWithEmptyReplacement() {
    ok(files.create("/memories/n.md", "keep\ndrop this\nand this\nkeep too"));
    ok(files.strReplace("/memories/n.md", "drop this\nand this\n", ""));
    assertThat(files.entry("/memories/n.md").orElseThrow().content()).isEqualTo("keep\nkeep too");
    assertThat(failed(files.strReplace("/memories/n.md", "keep\nkeep too", ""), FileError.INVALID_ARGUMENT))
        .startsWith("Error: The file text would be empty");
  }

  // ---- insert

  @Test
  void insertAtZeroAtTheEndAndPastTheEnd() {
    ok(files.create("/memories/n.md", "b\nc"));
    assertThat(ok(files.insert("/memories/n.md", 0, "a"))).isEqualTo("The file /memories/n.md has been edited.");
    assertThat(files.entry("/memories/n.md").orElseThrow().content()).isEqualTo("a\nb\nc");
    assertThat(ok(files.insert("/memories/n.md", 3, "d\ne\n"))).isEqualTo("The file /memories/n.md has been edited.");
    assertThat(files.entry("/memories/n.md").orElseThrow().content()).isEqualTo("a\nb\nc\nd\ne");
    ok(files.insert("/memories/n.md", 2, "b2"));
    assertThat(files.entry("/memories/n.md").orElseThrow().content()).isEqualTo("a\nb\nb2\nc\nd\ne");
    List<String> before = state();
    assertThat(failed(files.insert("/memories/n.md", 7, "x"), FileError.INVALID_LINE))
        .isEqualTo("Error: Invalid `insert_line` parameter: 7. It should be within the range of lines of the file: "
            + "[0, 6]");
    assertThat(failed(files.insert("/memories/n.md", -1, "x"), FileError.INVALID_LINE)).contains("[0, 6]");
    assertThat(failed(files.insert("/memories/none.md", 0, "x"), FileError.NOT_FOUND))
        .isEqualTo("Error: The path /memories/none.md does not exist");
    assertThat(state()).isEqualTo(before);
  }

  // ---- delete

  @Test
  void deleteRetiresAFileOrADirectoryButNeverTheRoot() {
    ok(files.create("/memories/a.md", "one"));
    ok(files.create("/memories/dir/b.md", "two"));
    ok(files.create("/memories/dir/sub/c.md", "three"));
    ok(files.create("/memories/dirt.md", "four"));
    assertThat(ok(files.delete("/memories/a.md"))).isEqualTo("Successfully deleted /memories/a.md");
    assertThat(failed(files.view("/memories/a.md"), FileError.NOT_FOUND)).contains("does not exist");
    assertThat(ok(files.delete("/memories/dir"))).isEqualTo("Successfully deleted /memories/dir");
    assertThat(failed(files.view("/memories/dir"), FileError.NOT_FOUND)).contains("does not exist");
    assertThat(files.entry("/memories/dirt.md")).isPresent();
    assertThat(failed(files.delete("/memories/a.md"), FileError.NOT_FOUND))
        .isEqualTo("Error: The path /memories/a.md does not exist");
    List<String> before = state();
    assertThat(failed(files.delete("/memories"), FileError.WRONG_KIND))
        .isEqualTo("Error: /memories itself cannot be deleted; delete the files or directories below it");
    assertThat(failed(files.delete("/memories/"), FileError.WRONG_KIND)).contains("cannot be deleted");
    assertThat(state()).isEqualTo(before);
    assertThat(before).filteredOn(s -> s.contains("RETIRED")).hasSize(3);
    // the deleted path is free again
    ok(files.create("/memories/a.md", "new one"));
    assertThat(files.entry("/memories/a.md").orElseThrow().content()).isEqualTo("new one");
  }

  // ---- rename

  @Test
  void renameMovesAFileAndRefusesAnExistingDestination() {
    ok(files.create("/memories/a.md", "one"));
    ok(files.create("/memories/b.md", "two"));
    String entryId = files.entry("/memories/a.md").orElseThrow().entryId();
    assertThat(ok(files.rename("/memories/a.md", "/memories/archive/a.md")))
        .isEqualTo("Successfully renamed /memories/a.md to /memories/archive/a.md");
    MemoryEntry moved = files.entry("/memories/archive/a.md").orElseThrow();
    assertThat(moved.entryId()).isEqualTo(entryId);
    assertThat(files.entry("/memories/a.md")).isEmpty();
    List<String> before = state();
    assertThat(failed(files.rename("/memories/b.md", "/memories/archive/a.md"), FileError.ALREADY_EXISTS))
        .isEqualTo("Error: The destination /memories/archive/a.md already exists");
    assertThat(failed(files.rename("/memories/b.md", "/memories/archive"), FileError.ALREADY_EXISTS))
        .isEqualTo("Error: The destination /memories/archive already exists");
    assertThat(failed(files.rename("/memories/gone.md", "/memories/c.md"), FileError.NOT_FOUND))
        .isEqualTo("Error: The path /memories/gone.md does not exist");
    assertThat(failed(files.rename("/memories", "/memories/x"), FileError.WRONG_KIND))
        .isEqualTo("Error: /memories itself cannot be renamed");
    assertThat(failed(files.rename("/memories/archive", "/memories/archive/inner"), FileError.INVALID_PATH))
        .contains("cannot be moved below itself");
    assertThat(failed(files.rename("/memories/b.md", "/memories/archive/a.md/x.md"), FileError.WRONG_KIND))
        .contains("is a file");
    assertThat(state()).isEqualTo(before);
    assertThat(engram.history(ALICE, entryId)).extracting(MemoryEvent::kind).containsExactly(EventKind.CREATE,
        EventKind.MOVE);
  }

  @Test
  void renameOfADirectoryMovesEveryFileBelowIt() {
    ok(files.create("/memories/old/a.md", "one"));
    ok(files.create("/memories/old/sub/b.md", "two"));
    ok(files.create("/memories/older.md", "three"));
    assertThat(ok(files.rename("/memories/old", "/memories/new"))).isEqualTo("Successfully renamed /memories/old "
        + "to /memories/new");
    assertThat(files.entry("/memories/new/a.md").orElseThrow().content()).isEqualTo("one");
    assertThat(files.entry("/memories/new/sub/b.md").orElseThrow().content()).isEqualTo("two");
    assertThat(files.entry("/memories/older.md")).isPresent();
    assertThat(failed(files.view("/memories/old"), FileError.NOT_FOUND)).contains("does not exist");
  }

  // ---- paths

  @Test
  void everyCommandRefusesPathsOutsideMemoriesAndChangesNothing() {
    ok(files.create("/memories/a.md", "one"));
    List<String> before = state();
    List<String> bad = List.of("/memories/../x", "/memories/../../etc/passwd", "/memories/%2e%2e/x",
        "/memories/%2E%2E%2Fx", "/memories/..%2fx", "%2Fmemories%2Fa.md", "/etc/passwd", "/tmp/memories/a.md",
        "/memoriesx/a.md", "/Memories/a.md", "memories/a.md", "/memories//a.md", "/memories/./a.md",
        "/memories/a/./b", "/memories\\..\\x", "/memories/a b.md", "/memories/caf\u00e9.md",
        "/memories/\u2025/x", "/memories/a\n.md", "");
    for (String p : bad) {
      assertThat(failed(files.view(p), FileError.INVALID_PATH)).as(p).startsWith("Error: The path");
      failed(files.create(p, "x"), FileError.INVALID_PATH);
      failed(files.strReplace(p, "one", "two"), FileError.INVALID_PATH);
      failed(files.insert(p, 0, "x"), FileError.INVALID_PATH);
      failed(files.delete(p), FileError.INVALID_PATH);
      failed(files.rename("/memories/a.md", p), FileError.INVALID_PATH);
      failed(files.rename(p, "/memories/b.md"), FileError.INVALID_PATH);
    }
    assertThat(failed(files.view("/memories/../x"), FileError.INVALID_PATH))
        .isEqualTo("Error: The path /memories/../x contains a '..' segment. Paths may not walk out of or around "
            + "/memories");
    assertThat(failed(files.view("/memories/%2e%2e/x"), FileError.INVALID_PATH)).contains("Percent-encoded");
    assertThat(failed(files.view("/etc/passwd"), FileError.INVALID_PATH))
        .isEqualTo("Error: The path /etc/passwd is outside /memories. Every memory path starts with /memories/");
    assertThat(failed(files.view("/memories/" + "a".repeat(300)), FileError.INVALID_PATH)).contains("too long");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void entriesOutsideTheFileDomainAreNotFiles() {
    engram.write(ALICE, "Uses PostgreSQL 16.", dev.engram.WriteOptions.builder().path("project://db").build());
    engram.write(ALICE, "Likes tea.");
    assertThat(ok(files.view("/memories"))).isEqualTo(LISTING + "/memories" + LISTING_TAIL + "\n0\t/memories");
  }

  // ---- grants

  @Test
  void viewsOfOtherGrantsNeverSeeEachOther() {
    ok(files.create("/memories/private.md", "Alice's secret"));
    MemoryFiles bob = MemoryFiles.bind(engram, BOB);
    assertThat(failed(bob.view("/memories/private.md"), FileError.NOT_FOUND)).contains("does not exist");
    assertThat(ok(bob.view("/memories"))).doesNotContain("private");
    ok(bob.create("/memories/private.md", "Bob's own"));
    assertThat(files.entry("/memories/private.md").orElseThrow().content()).isEqualTo("Alice's secret");
    assertThat(bob.entry("/memories/private.md").orElseThrow().scope()).isEqualTo("app/team/bob");
  }

  @Test
  void aReadOnlyViewRefusesEveryWrite() {
    MemoryFiles team = MemoryFiles.bind(engram, Grants.of("app/team"));
    ok(team.create("/memories/handbook.md", "Deploys happen on Thursdays."));
    MemoryFiles shared = MemoryFiles.bind(engram, ALICE, MemoryFilesOptions.builder().scope("app/team").build());
    MemoryFiles reading = MemoryFiles.bind(engram, ALICE, MemoryFilesOptions.builder().mode(MemoryMode.READ).build());
    ok(files.create("/memories/own.md", "mine"));
    assertThat(shared.mode()).isEqualTo(MemoryMode.READ);
    assertThat(reading.mode()).isEqualTo(MemoryMode.READ);
    assertThat(files.mode()).isEqualTo(MemoryMode.READ_WRITE);
    assertThat(ok(shared.view("/memories/handbook.md"))).endsWith("     1\tDeploys happen on Thursdays.");
    List<String> before = state();
    for (MemoryFiles ro : List.of(shared, reading)) {
      String path = ro == shared ? "/memories/handbook.md" : "/memories/own.md";
      assertThat(failed(ro.create("/memories/new.md", "x"), FileError.READ_ONLY))
          .isEqualTo("Error: These memories are read-only here; create is refused and nothing was changed");
      failed(ro.strReplace(path, "a", "b"), FileError.READ_ONLY);
      failed(ro.insert(path, 0, "x"), FileError.READ_ONLY);
      failed(ro.delete(path), FileError.READ_ONLY);
      failed(ro.rename(path, "/memories/moved.md"), FileError.READ_ONLY);
      assertThat(ro.tools()).extracting(ToolSpec::name).containsExactly("memory_file_view");
      failed(ro.call("memory_file_create", "{\"path\":\"/memories/x.md\",\"file_text\":\"x\"}"), FileError.READ_ONLY);
    }
    assertThat(state()).isEqualTo(before);
    assertThat(engram.list(Grants.of("app/team"))).extracting(MemoryEntry::content)
        .containsExactly("Deploys happen on Thursdays.");
    assertThatThrownBy(() -> MemoryFiles.bind(engram, ALICE, MemoryFilesOptions.builder().scope("app/team/bob").build()))
        .isInstanceOf(InvalidInputException.class);
  }

  // ---- versions

  @Test
  void editsAreVersionsInHistoryAndRollbackUndoesThem() {
    ok(files.create("/memories/plan.md", "step one\nstep two"));
    ok(files.strReplace("/memories/plan.md", "two", "2"));
    ok(files.insert("/memories/plan.md", 2, "step three"));
    MemoryEntry now = files.entry("/memories/plan.md").orElseThrow();
    assertThat(now.version()).isEqualTo(3);
    List<MemoryEvent> history = engram.history(ALICE, now.entryId());
    assertThat(history).extracting(MemoryEvent::kind).containsExactly(EventKind.CREATE, EventKind.UPDATE,
        EventKind.UPDATE);
    assertThat(history).extracting(MemoryEvent::actor).containsOnly(MemoryResource.DEFAULT_SOURCE);
    assertThat(history.get(1).before().content()).isEqualTo("step one\nstep two");
    assertThat(history.get(1).after().content()).isEqualTo("step one\nstep 2");
    engram.rollback(ALICE, history.get(0).eventId());
    assertThat(ok(files.view("/memories/plan.md"))).endsWith("     1\tstep one\n     2\tstep two");
    ok(files.delete("/memories/plan.md"));
    assertThat(engram.get(ALICE, now.entryId()).status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(engram.history(ALICE, now.entryId()).get(engram.history(ALICE, now.entryId()).size() - 1).kind())
        .isEqualTo(EventKind.RETIRE);
  }

  @Test
  void anEqualEditMakesNoVersion() {
    ok(files.create("/memories/n.md", "same"));
    ok(files.strReplace("/memories/n.md", "same", "same"));
    assertThat(files.entry("/memories/n.md").orElseThrow().version()).isEqualTo(1);
  }

  @Test
  void anExpectedContentHashGuardsTheEdit() {
    FileResult created = files.create("/memories/n.md", "meeting on Tuesday");
    String seen = created.contentHash();
    ok(files.strReplace("/memories/n.md", "Tuesday", "Monday"));
    List<String> before = state();
    FileEditOptions stale = FileEditOptions.builder().expectedContentHash(seen).build();
    assertThat(failed(files.strReplace("/memories/n.md", "Monday", "Friday", stale), FileError.CONFLICT))
        .startsWith("Error: The file /memories/n.md changed since it was read");
    failed(files.insert("/memories/n.md", 0, "x", stale), FileError.CONFLICT);
    failed(files.delete("/memories/n.md", stale), FileError.CONFLICT);
    failed(files.rename("/memories/n.md", "/memories/m.md", stale), FileError.CONFLICT);
    assertThat(state()).isEqualTo(before);
    FileEditOptions current = FileEditOptions.builder()
        .expectedContentHash(files.view("/memories/n.md").contentHash()).build();
    ok(files.strReplace("/memories/n.md", "Monday", "Friday", current));
    assertThatThrownBy(() -> FileEditOptions.builder().expectedContentHash("ABC"))
        .isInstanceOf(InvalidInputException.class);
  }

  @Test
  void concurrentEditsOfOneFileAreNeverLost() throws Exception {
    ok(files.create("/memories/log.md", "start"));
    int threads = 2;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<FileResult>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        String line = "entry " + i;
        results.add(pool.submit(() -> {
          go.await();
          return files.insert("/memories/log.md", 1, line);
        }));
      }
      go.countDown();
      for (Future<FileResult> f : results) {
        ok(f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(MemoryFiles.lines(files.entry("/memories/log.md").orElseThrow().content()))
        .containsExactlyInAnyOrder("start", "entry 0", "entry 1");
  }

  // ---- JSON surface

  @Test
  void toolsAreStrictAndTheCommandInputRunsAsTheModelSendsIt() throws Exception {
    assertThat(files.tools()).extracting(ToolSpec::name).containsExactly("memory_file_view", "memory_file_create",
        "memory_file_str_replace", "memory_file_insert", "memory_file_delete", "memory_file_rename");
    for (ToolSpec t : files.tools()) {
      JsonNode schema = JSON.readTree(t.inputSchema());
      assertThat(schema.path("additionalProperties").asBoolean(true)).as(t.name()).isFalse();
      assertThat(t.description()).isNotBlank();
      schema.path("properties").fieldNames().forEachRemaining(name ->
          assertThat(name).as(t.name()).doesNotContainIgnoringCase("scope").doesNotContainIgnoringCase("namespace")
              .doesNotContainIgnoringCase("grant"));
    }
    assertThat(ok(files.command("{\"command\":\"create\",\"path\":\"/memories/j.md\",\"file_text\":\"a\\nb\"}")))
        .isEqualTo("File created successfully at: /memories/j.md");
    assertThat(ok(files.command("{\"command\":\"view\",\"path\":\"/memories/j.md\",\"view_range\":[2,-1]}")))
        .endsWith("\n     2\tb");
    assertThat(ok(files.call("memory_file_str_replace",
        "{\"path\":\"/memories/j.md\",\"old_str\":\"b\",\"new_str\":\"c\"}"))).startsWith("The memory file has been edited.");
    assertThat(ok(files.command("{\"command\":\"insert\",\"path\":\"/memories/j.md\",\"insert_line\":0,"
        + "\"insert_text\":\"z\"}"))).isEqualTo("The file /memories/j.md has been edited.");
    assertThat(ok(files.command("{\"command\":\"rename\",\"old_path\":\"/memories/j.md\",\"new_path\":\"/memories/k.md\"}")))
        .isEqualTo("Successfully renamed /memories/j.md to /memories/k.md");
    assertThat(ok(files.command("{\"command\":\"delete\",\"path\":\"/memories/k.md\"}")))
        .isEqualTo("Successfully deleted /memories/k.md");
    failed(files.command("{\"command\":\"format\",\"path\":\"/memories\"}"), FileError.INVALID_ARGUMENT);
    failed(files.command("{\"path\":\"/memories\"}"), FileError.INVALID_ARGUMENT);
    failed(files.command("not json"), FileError.INVALID_ARGUMENT);
    assertThat(failed(files.command("{\"command\":\"view\",\"path\":\"/memories\",\"namespace\":\"app/team/bob\"}"),
        FileError.INVALID_ARGUMENT)).contains("namespace");
    failed(files.call("memory_file_view", "{\"path\":\"/memories\",\"view_range\":[1]}"), FileError.INVALID_ARGUMENT);
    failed(files.call("memory_file_str_replace", "{\"path\":\"/memories/a\",\"old_str\":\"a\",\"new_str\":\"b\","
        + "\"expected_content_hash\":\"" + "Z".repeat(64) + "\"}"), FileError.INVALID_ARGUMENT);
    failed(files.call("memory_nope", "{}"), FileError.INVALID_ARGUMENT);
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.helpers.BetaMemoryToolHandler;
import dev.engram.Engram;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.agent.MemoryFiles;
import dev.engram.agent.MemoryFilesOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The memory-tool protocol's key cases through the SDK's own command types, as the tool runner hands them over. */
class EngramMemoryToolHandlerTest {
  private static final Grants ALICE = Grants.of("app/users/alice");
  private final Engram engram = Engram.builder().store(new InMemoryMemoryStore())
      .reasoner(new DeterministicReasoner()).build();
  private final BetaMemoryToolHandler handler = EngramMemoryToolHandler.of(engram, ALICE);

  @AfterEach
  void close() {
    engram.close();
  }

  private String run(String input) {
    return SdkCommands.run(handler, input);
  }

  private List<String> state() {
    return engram.list(Grants.of("app/users/alice"), ListOptions.builder().includeSuperseded(true)
        .includeRetired(true).build()).stream().map(e -> e.path() + " v" + e.version() + " " + e.status() + " "
        + e.content()).toList();
  }

  @Test
  void everyCommandAnswersInTheProtocolsWords() {
    assertThat(run("{\"command\":\"view\",\"path\":\"/memories\"}")).isEqualTo("Here're the files and directories "
        + "up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0\t/memories");
    assertThat(run("{\"command\":\"create\",\"path\":\"/memories/prefs.md\",\"file_text\":\"Prefers metric units.\\n"
        + "Works in CET.\\nDrinks tea.\"}")).isEqualTo("File created successfully at: /memories/prefs.md");
    assertThat(run("{\"command\":\"view\",\"path\":\"/memories/prefs.md\"}")).isEqualTo("Here's the content of "
        + "/memories/prefs.md with line numbers:\n     1\tPrefers metric units.\n     2\tWorks in CET.\n     3\tDrinks tea.");
    assertThat(run("{\"command\":\"view\",\"path\":\"/memories/prefs.md\",\"view_range\":[2,-1]}"))
        .isEqualTo("Here's the content of /memories/prefs.md with line numbers:\n     2\tWorks in CET.\n     3\tDrinks tea.");
    assertThat(run("{\"command\":\"view\",\"path\":\"/memories\"}")).endsWith("\n47\t/memories\n47\t/memories/prefs.md");
    assertThat(run("{\"command\":\"str_replace\",\"path\":\"/memories/prefs.md\",\"old_str\":\"CET\",\"new_str\":\"CEST\"}"))
        .isEqualTo("The memory file has been edited. Here's a snippet of /memories/prefs.md with line numbers:\n"
            + "     1\tPrefers metric units.\n     2\tWorks in CEST.\n     3\tDrinks tea.");
    assertThat(run("{\"command\":\"str_replace\",\"path\":\"/memories/prefs.md\",\"old_str\":\"coffee\",\"new_str\":\"x\"}"))
        .isEqualTo("No replacement was performed, old_str `coffee` did not appear verbatim in /memories/prefs.md.");
    assertThat(run("{\"command\":\"str_replace\",\"path\":\"/memories/prefs.md\",\"old_str\":\"s\",\"new_str\":\"x\"}"))
        .isEqualTo("No replacement was performed. Multiple occurrences of old_str `s` in lines: 1, 2, 3. Please "
            + "ensure it is unique");
    assertThat(run("{\"command\":\"insert\",\"path\":\"/memories/prefs.md\",\"insert_line\":0,\"insert_text\":\"# Alice\"}"))
        .isEqualTo("The file /memories/prefs.md has been edited.");
    assertThat(run("{\"command\":\"insert\",\"path\":\"/memories/prefs.md\",\"insert_line\":4,\"insert_text\":\"Runs.\"}"))
        .isEqualTo("The file /memories/prefs.md has been edited.");
    assertThat(run("{\"command\":\"insert\",\"path\":\"/memories/prefs.md\",\"insert_line\":6,\"insert_text\":\"x\"}"))
        .isEqualTo("Error: Invalid `insert_line` parameter: 6. It should be within the range of lines of the file: [0, 5]");
    assertThat(run("{\"command\":\"create\",\"path\":\"/memories/other.md\",\"file_text\":\"x\"}"))
        .isEqualTo("File created successfully at: /memories/other.md");
    assertThat(run("{\"command\":\"rename\",\"old_path\":\"/memories/other.md\",\"new_path\":\"/memories/prefs.md\"}"))
        .isEqualTo("Error: The destination /memories/prefs.md already exists");
    assertThat(run("{\"command\":\"rename\",\"old_path\":\"/memories/other.md\",\"new_path\":\"/memories/old/other.md\"}"))
        .isEqualTo("Successfully renamed /memories/other.md to /memories/old/other.md");
    assertThat(run("{\"command\":\"delete\",\"path\":\"/memories\"}"))
        .isEqualTo("Error: /memories itself cannot be deleted; delete the files or directories below it");
    assertThat(run("{\"command\":\"delete\",\"path\":\"/memories/old\"}")).isEqualTo("Successfully deleted /memories/old");
    assertThat(run("{\"command\":\"view\",\"path\":\"/memories/old/other.md\"}"))
        .isEqualTo("The path /memories/old/other.md does not exist. Please provide a valid path.");
    assertThat(MemoryFiles.bind(engram, ALICE).entry("/memories/prefs.md").orElseThrow().content())
        .isEqualTo("# Alice\nPrefers metric units.\nWorks in CEST.\nDrinks tea.\nRuns.");
  }

  @Test
  void traversalIsRefusedBeforeAnythingIsRead() {
    run("{\"command\":\"create\",\"path\":\"/memories/a.md\",\"file_text\":\"kept\"}");
    List<String> before = state();
    assertThat(run("{\"command\":\"view\",\"path\":\"/memories/../x\"}")).startsWith("Error: The path /memories/../x "
        + "contains a '..' segment");
    assertThat(run("{\"command\":\"create\",\"path\":\"/memories/%2e%2e/x\",\"file_text\":\"x\"}"))
        .contains("Percent-encoded paths are not accepted");
    assertThat(run("{\"command\":\"delete\",\"path\":\"/etc/passwd\"}"))
        .isEqualTo("Error: The path /etc/passwd is outside /memories. Every memory path starts with /memories/");
    assertThat(run("{\"command\":\"rename\",\"old_path\":\"/memories/a.md\",\"new_path\":\"/memories/../../a.md\"}"))
        .startsWith("Error: The path /memories/../../a.md contains a '..' segment");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void aReadOnlyGrantRefusesEveryWrite() {
    MemoryFiles team = MemoryFiles.bind(engram, Grants.of("app/users"));
    team.create("/memories/policy.md", "Refunds within 30 days.");
    BetaMemoryToolHandler ro = EngramMemoryToolHandler.of(MemoryFiles.bind(engram, ALICE,
        MemoryFilesOptions.builder().scope("app/users").build()));
    assertThat(SdkCommands.run(ro, "{\"command\":\"view\",\"path\":\"/memories/policy.md\"}"))
        .endsWith("     1\tRefunds within 30 days.");
    for (String write : List.of(
        "{\"command\":\"create\",\"path\":\"/memories/x.md\",\"file_text\":\"x\"}",
        "{\"command\":\"str_replace\",\"path\":\"/memories/policy.md\",\"old_str\":\"30\",\"new_str\":\"90\"}",
        "{\"command\":\"insert\",\"path\":\"/memories/policy.md\",\"insert_line\":0,\"insert_text\":\"x\"}",
        "{\"command\":\"delete\",\"path\":\"/memories/policy.md\"}",
        "{\"command\":\"rename\",\"old_path\":\"/memories/policy.md\",\"new_path\":\"/memories/p.md\"}")) {
      assertThat(SdkCommands.run(ro, write)).as(write).startsWith("Error: These memories are read-only here;");
    }
    assertThat(engram.list(Grants.of("app/users"))).extracting(MemoryEntry::content)
        .containsExactly("Refunds within 30 days.");
  }

  @Test
  void editsAreVersionsAndRollbackUndoesThem() {
    run("{\"command\":\"create\",\"path\":\"/memories/plan.md\",\"file_text\":\"ship on Friday\"}");
    run("{\"command\":\"str_replace\",\"path\":\"/memories/plan.md\",\"old_str\":\"Friday\",\"new_str\":\"Monday\"}");
    MemoryEntry e = MemoryFiles.bind(engram, ALICE).entry("/memories/plan.md").orElseThrow();
    List<MemoryEvent> history = engram.history(ALICE, e.entryId());
    assertThat(history).extracting(MemoryEvent::kind).containsExactly(EventKind.CREATE, EventKind.UPDATE);
    engram.rollback(ALICE, history.get(0).eventId());
    assertThat(run("{\"command\":\"view\",\"path\":\"/memories/plan.md\"}")).endsWith("     1\tship on Friday");
  }
}

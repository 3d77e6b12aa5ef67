/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.EntryPatch;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.WriteOptions;
import dev.engram.spi.CurateOp;
import dev.engram.test.ScriptedReasoner;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * History origin: every event records where its change came from as an open lowercase id, next to
 * the free-text actor, and the store keeps it (and an export carries it).
 */
public abstract class OriginContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final Grants U1 = Grants.of(S1);

  @Test
  void eventsRecordTheOriginOfEachChange() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, Fixtures.clocked());
    MemoryEntry a = engram.write(U1, "A fact an agent wrote.", WriteOptions.builder().topicsHint("t")
        .source("codex").origin("agent").build()).entry();
    MemoryEntry b = write(engram, U1, "A fact the application wrote.", "t").entry();
    engram.correct(U1, a.entryId(), "A fact an agent wrote, corrected in the console.",
        ChangeOptions.builder().source("alice").origin("console").build());
    engram.move(U1, a.entryId(), "project://a", ChangeOptions.builder().source("claude").origin("mcp").build());
    engram.update(U1, b.entryId(), EntryPatch.priority(3));
    reasoner.onCurate("t", new CurateOp.Rewrite(b.entryId(), "A fact the curator rewrote.", null));
    String run = engram.curate(U1).runId();
    engram.undoCuration(U1, run);

    assertThat(engram.history(U1, a.entryId())).extracting(MemoryEvent::origin, MemoryEvent::actor).containsExactly(
        org.assertj.core.groups.Tuple.tuple("agent", "codex"),
        org.assertj.core.groups.Tuple.tuple("console", "alice"),
        org.assertj.core.groups.Tuple.tuple("mcp", "claude"));
    assertThat(engram.history(U1, b.entryId())).extracting(MemoryEvent::origin).containsExactly(
        "application", "application", "curator", "curator");

    StringWriter out = new StringWriter();
    engram.operator().export(U1, out);
    Engram copy = newEngram();
    copy.operator().importFrom(U1, new StringReader(out.toString()), ImportOptions.defaults());
    for (MemoryEntry e : List.of(a, b)) {
      assertThat(copy.history(U1, e.entryId())).isEqualTo(engram.history(U1, e.entryId()));
    }
  }

  @Test
  void anEventWithoutARecordedOriginIsInferredFromItsActor() {
    assertThat(MemoryEvent.inferredOrigin("curator")).isEqualTo("curator");
    assertThat(MemoryEvent.inferredOrigin("curator-undo")).isEqualTo("curator");
    assertThat(MemoryEvent.inferredOrigin(null)).isEqualTo("application");
    assertThat(MemoryEvent.inferredOrigin("codex")).isEqualTo("application");
  }

  @Test
  void anOriginIsAnOpenIdCheckedByOneRule() {
    Engram engram = newEngram();
    MemoryEntry e = engram.write(U1, "A fact a new runtime wrote.", WriteOptions.builder().topicsHint("t")
        .origin("my-runtime-2").build()).entry();
    assertThat(engram.history(U1, e.entryId())).extracting(MemoryEvent::origin).containsExactly("my-runtime-2");
    for (String bad : List.of("", "Agent", "9lives", "a b", "x".repeat(33), "agent/../x")) {
      assertThatThrownBy(() -> WriteOptions.builder().origin(bad)).isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("origin");
      assertThatThrownBy(() -> ChangeOptions.builder().origin(bad).build()).isInstanceOf(InvalidInputException.class);
    }
  }
}

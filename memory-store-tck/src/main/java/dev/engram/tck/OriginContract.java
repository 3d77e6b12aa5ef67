/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.EntryPatch;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Origin;
import dev.engram.WriteOptions;
import dev.engram.spi.CurateOp;
import dev.engram.test.ScriptedReasoner;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * History origin: every event records where its change came from as an {@link Origin}, next to the
 * free-text actor, and the store keeps it (and an export carries it).
 */
public abstract class OriginContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final Grants U1 = Grants.of(S1);

  @Test
  void eventsRecordTheOriginOfEachChange() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, Fixtures.clocked());
    MemoryEntry a = engram.write(U1, "A fact an agent wrote.", WriteOptions.builder().topicsHint("t")
        .source("codex").origin(Origin.AGENT).build()).entry();
    MemoryEntry b = write(engram, U1, "A fact the application wrote.", "t").entry();
    engram.correct(U1, a.entryId(), "A fact an agent wrote, corrected in the console.",
        ChangeOptions.none().withSource("alice").withOrigin(Origin.CONSOLE));
    engram.move(U1, a.entryId(), "project://x/a", ChangeOptions.none().withSource("claude").withOrigin(Origin.MCP));
    engram.update(U1, b.entryId(), EntryPatch.priority(3));
    reasoner.onCurate("t", new CurateOp.Rewrite(b.entryId(), "A fact the curator rewrote.", null));
    String run = engram.curate(U1).runId();
    engram.undoCuration(U1, run);

    assertThat(engram.history(U1, a.entryId())).extracting(MemoryEvent::origin, MemoryEvent::actor).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Origin.AGENT, "codex"),
        org.assertj.core.groups.Tuple.tuple(Origin.CONSOLE, "alice"),
        org.assertj.core.groups.Tuple.tuple(Origin.MCP, "claude"));
    assertThat(engram.history(U1, b.entryId())).extracting(MemoryEvent::origin).containsExactly(
        Origin.APPLICATION, Origin.APPLICATION, Origin.CURATOR, Origin.CURATOR);

    StringWriter out = new StringWriter();
    engram.export(U1, out);
    Engram copy = newEngram();
    copy.importFrom(U1, new StringReader(out.toString()), ImportOptions.defaults());
    for (MemoryEntry e : List.of(a, b)) {
      assertThat(copy.history(U1, e.entryId())).isEqualTo(engram.history(U1, e.entryId()));
    }
  }

  @Test
  void anEventWithoutARecordedOriginIsInferredFromItsActor() {
    assertThat(Origin.inferred("curator")).isEqualTo(Origin.CURATOR);
    assertThat(Origin.inferred("curator-undo")).isEqualTo(Origin.CURATOR);
    assertThat(Origin.inferred(null)).isEqualTo(Origin.APPLICATION);
    assertThat(Origin.inferred("codex")).isEqualTo(Origin.APPLICATION);
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.Revision;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs open one new file at the same moment and write into the same scope from two threads each:
 * every write lands, the scope's revisions are 1..n without gaps, and no caller sees an exception.
 */
class TwoProcessTest {
  private static final int THREADS = 2;
  private static final int PER_THREAD = 120;

  @TempDir Path dir;

  @Test
  @Timeout(240)
  void twoProcessesWritingOneScopeLoseNothingAndNeverFail() throws Exception {
    Path db = dir.resolve("shared.db");
    List<String> acknowledged = new ArrayList<>();
    try (ChildJvm a = ChildJvm.start(SharedFileWriter.class, dir, db.toString(), "a", "" + THREADS, "" + PER_THREAD);
        ChildJvm b = ChildJvm.start(SharedFileWriter.class, dir, db.toString(), "b", "" + THREADS, "" + PER_THREAD)) {
      Duration timeout = Duration.ofSeconds(90);
      assertThat(a.nextLine(timeout)).as(a.stderr()).isEqualTo("READY");
      assertThat(b.nextLine(timeout)).as(b.stderr()).isEqualTo("READY");
      a.send("GO");
      b.send("GO");
      for (ChildJvm child : List.of(a, b)) {
        List<String> lines = new ArrayList<>();
        for (String line = child.nextLine(timeout); line != null; line = child.nextLine(timeout)) {
          lines.add(line);
        }
        assertThat(lines).as("errors reported by a writer; stderr: " + child.stderr())
            .noneMatch(l -> l.startsWith("E "));
        assertThat(lines).last().isEqualTo("DONE");
        assertThat(child.waitFor(timeout)).as(child.stderr()).isZero();
        assertThat(child.stderr()).doesNotContain("Exception");
        lines.stream().filter(l -> l.startsWith("W ")).map(l -> l.substring(2)).forEach(acknowledged::add);
      }
    }
    int total = 2 * THREADS * PER_THREAD;
    assertThat(acknowledged).hasSize(total).doesNotHaveDuplicates();
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      assertThat(store.headRevision("app/shared")).isEqualTo(total);
      List<Revision> revisions = store.revisions("app/shared", 0, Integer.MAX_VALUE);
      assertThat(revisions).extracting(Revision::revision)
          .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, total).boxed().toList());
      Set<String> appended = new HashSet<>();
      for (Revision r : revisions) {
        assertThat(r.changes()).singleElement().extracting(Change::kind).isEqualTo(ChangeKind.APPEND);
        appended.add(r.changes().get(0).entryId());
      }
      assertThat(appended).containsExactlyInAnyOrderElementsOf(acknowledged);
      int switches = 0;
      String previous = null;
      for (Revision r : revisions) {
        String writer = store.versions(r.changes().get(0).entryId()).get(0).content().substring(10, 11);
        if (previous != null && !previous.equals(writer)) {
          switches++;
        }
        previous = writer;
      }
      assertThat(switches).as("the two processes took turns in the scope's revision order").isPositive();
      assertThat(store.versionsIn(List.of("app/shared"), EnumSet.of(EntryStatus.ACTIVE))).hasSize(total);
      assertThat(store.topics(List.of("app/shared"))).singleElement()
          .satisfies(t -> assertThat(t.activeCount()).isEqualTo(total));
    }
  }
}

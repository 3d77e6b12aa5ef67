/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Child process of {@link CrashSafetyTest}: writes and corrects entries as fast as it can until it is
 * killed, printing each change only after the call returned. {@code W entryId versionId} acknowledges
 * a write, {@code C entryId versionId} a correction.
 */
public final class CrashWriter {
  private CrashWriter() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]);
    String round = args[1];
    Random random = new Random();
    Grants grants = Grants.of("app/crash");
    List<String> written = new ArrayList<>();
    try (Engram engram = Engram.builder()
        .store(new SqliteMemoryStore(file))
        .reasoner(new DeterministicReasoner())
        .build()) {
      System.out.println("READY");
      System.out.flush();
      for (int i = 0; ; i++) {
        if (i % 5 == 4 && !written.isEmpty()) {
          String entryId = written.get(random.nextInt(written.size()));
          MemoryEntry next = engram.correct(grants, entryId, "Correction " + round + "-" + i + " of " + entryId);
          System.out.println("C " + next.entryId() + " " + next.versionId());
        } else {
          String topic = "topic" + random.nextInt(4);
          WriteResult r = engram.write(grants, "Fact " + round + "-" + i + " noted at " + System.nanoTime(),
              WriteOptions.builder().topicsHint(topic, "general").glossary("crash", "round" + round).build());
          written.add(r.entry().entryId());
          System.out.println("W " + r.entry().entryId() + " " + r.entry().versionId());
        }
        System.out.flush();
      }
    }
  }
}

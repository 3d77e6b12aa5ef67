/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child process of {@link TwoProcessTest}: says {@code READY}, waits for {@code GO} on stdin, then
 * opens the shared file and writes {@code perThread} entries from each of {@code threads} threads into
 * one scope. Prints {@code W entryId} per acknowledged write, {@code E …} for any exception, and
 * {@code DONE} at the end.
 */
public final class SharedFileWriter {
  private SharedFileWriter() {}

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    String name = args[1];
    int threads = Integer.parseInt(args[2]);
    int perThread = Integer.parseInt(args[3]);
    PrintStream out = System.out;
    out.println("READY");
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    if (!"GO".equals(in.readLine())) {
      System.exit(2);
    }
    Grants grants = Grants.of("app/shared");
    boolean[] failed = new boolean[1];
    try (Engram engram = Engram.builder()
        .store(new SqliteMemoryStore(file))
        .reasoner(new DeterministicReasoner())
        .build()) {
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        workers.add(new Thread(() -> {
          for (int i = 0; i < perThread; i++) {
            try {
              WriteResult r = engram.write(grants, "Note from " + name + " thread " + thread + " number " + i,
                  WriteOptions.builder().topicsHint("shared").build());
              synchronized (out) {
                out.println("W " + r.entry().entryId());
                out.flush();
              }
            } catch (RuntimeException e) {
              synchronized (out) {
                failed[0] = true;
                out.println("E " + e.getClass().getName() + ": " + e.getMessage());
                out.flush();
              }
            }
          }
        }));
      }
      workers.forEach(Thread::start);
      for (Thread w : workers) {
        w.join();
      }
    }
    out.println("DONE");
    out.flush();
    System.exit(failed[0] ? 1 : 0);
  }
}

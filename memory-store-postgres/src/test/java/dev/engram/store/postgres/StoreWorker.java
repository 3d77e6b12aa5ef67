/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.CapturedSource;
import dev.engram.ChangeOptions;
import dev.engram.FlushOptions;
import dev.engram.FlushReport;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.RevisionConflictException;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * The child process of the multi-process tests. It connects with the JDBC URL and schema it is
 * given, prints {@code READY}, waits for {@code GO} on stdin (so all children start together), does
 * its part and reports on stdout, one fact per line. Any unexpected failure prints {@code ERROR} and
 * exits with status 2.
 *
 * <ul>
 *   <li>{@code write URL SCHEMA SCOPE WORKER OPS}: appends and corrects entries in one scope, half of
 *       them with {@code expectedRevision}; prints {@code OK rev kind entryId versionId [expected]}
 *       and {@code CONFLICT expected actual}.
 *   <li>{@code claim URL SCHEMA WORKER BATCH}: claims dirty topics until none is left; prints
 *       {@code CLAIM scope topic}.
 *   <li>{@code hold URL SCHEMA WORKER LEASE_MILLIS}: claims every dirty topic, prints the claims and
 *       {@code HOLDING}, then sleeps until killed.
 *   <li>{@code drain URL SCHEMA WORKER}: claims scopes with pending sources one at a time and flushes
 *       each (windows of 4) until none is left; prints {@code EXTRACT scope first last} for every window
 *       handed to the reasoner and {@code FLUSH scope windows appended lost}.
 *   <li>{@code flush URL SCHEMA WORKER SCOPE}: flushes one scope without claims (windows of 4, one
 *       window per call, until nothing is pending); prints the same lines.
 *   <li>{@code migrate URL SCHEMA}: opens the store (running the migrations) after {@code GO}; prints
 *       {@code MIGRATED}.
 * </ul>
 */
public final class StoreWorker {
  private StoreWorker() {}

  public static void main(String[] args) throws Exception {
    try {
      run(args);
      System.out.println("DONE");
      System.out.flush();
      System.exit(0);
    } catch (Throwable t) {
      System.out.println("ERROR " + t);
      t.printStackTrace(System.err);
      System.out.flush();
      System.exit(2);
    }
  }

  private static void run(String[] args) throws Exception {
    String mode = args[0];
    String url = args[1];
    String schema = args[2];
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    if (mode.equals("migrate")) {
      ready(in);
      try (PostgresMemoryStore store = open(url, schema)) {
        System.out.println("MIGRATED " + store.headRevision("probe"));
      }
      return;
    }
    try (PostgresMemoryStore store = open(url, schema)) {
      switch (mode) {
        case "write" -> write(store, in, args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]));
        case "claim" -> claim(store, in, args[3], Integer.parseInt(args[4]));
        case "hold" -> hold(store, in, args[3], Long.parseLong(args[4]));
        case "drain" -> drain(store, in, args[3]);
        case "flush" -> flushScope(store, in, args[4]);
        default -> throw new IllegalArgumentException("unknown mode " + mode);
      }
    }
  }

  private static PostgresMemoryStore open(String url, String schema) {
    return PostgresMemoryStore.builder().jdbcUrl(url).schema(schema).maximumPoolSize(2).build();
  }

  private static void ready(BufferedReader in) throws Exception {
    System.out.println("READY");
    System.out.flush();
    String line = in.readLine();
    if (!"GO".equals(line)) {
      throw new IllegalStateException("expected GO, got " + line);
    }
  }

  private static void write(PostgresMemoryStore store, BufferedReader in, String scope, int worker, int ops)
      throws Exception {
    Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build();
    Grants grants = Grants.of(scope);
    Random random = new Random(worker);
    ready(in);
    for (int i = 0; i < ops; i++) {
      boolean expect = random.nextBoolean();
      Long expected = expect ? engram.revision(grants, scope) : null;
      try {
        List<MemoryEntry> current = engram.read(grants, List.of("shared"));
        if (current.isEmpty() || random.nextBoolean()) {
          WriteOptions.Builder options = WriteOptions.builder().topicsHint("shared");
          if (expected != null) {
            options.expectedRevision(expected);
          }
          WriteResult r = engram.write(grants, "worker " + worker + " writes fact " + i, options.build());
          report(r.revision(), "APPEND", r.entry(), expected);
        } else {
          MemoryEntry target = current.get(random.nextInt(current.size()));
          MemoryEntry next = engram.correct(grants, target.entryId(), "worker " + worker + " corrects with " + i,
              expected == null ? ChangeOptions.builder().source("worker-" + worker).build()
                  : ChangeOptions.builder().expectedRevision(expected).source("worker-" + worker).build());
          report(next.createdInRevision(), "UPDATE", next, expected);
        }
      } catch (RevisionConflictException e) {
        System.out.println("CONFLICT " + e.expectedRevision() + " " + e.actualRevision() + " " + e.code());
      }
    }
  }

  private static void report(long revision, String kind, MemoryEntry e, Long expected) {
    System.out.println("OK " + revision + " " + kind + " " + e.entryId() + " " + e.versionId()
        + (expected == null ? "" : " " + expected));
  }

  private static void claim(PostgresMemoryStore store, BufferedReader in, String worker, int batch) throws Exception {
    ready(in);
    while (true) {
      List<TopicClaim> claims = store.claimDirtyTopics(worker, batch, Duration.ofMinutes(5));
      if (claims.isEmpty()) {
        return;
      }
      for (TopicClaim c : claims) {
        System.out.println("CLAIM " + c.scope() + " " + c.topic());
      }
    }
  }

  /** The deterministic reasoner, printing every window it is asked to extract. */
  private static Reasoner reporting() {
    DeterministicReasoner turns = new DeterministicReasoner();
    return new Reasoner() {
      @Override
      public TagProposal tag(TagRequest request) {
        return turns.tag(request);
      }

      @Override
      public boolean usesContext() {
        return false;
      }

      @Override
      public boolean extracts() {
        return true;
      }

      @Override
      public List<ExtractedMemory> extract(ExtractRequest request) {
        List<CapturedSource> w = request.window();
        System.out.println("EXTRACT " + request.scope() + " " + w.get(0).position() + " " + w.get(w.size() - 1).position());
        return turns.extract(request);
      }
    };
  }

  private static void report(String scope, FlushReport r) {
    if (r.failed()) {
      throw new IllegalStateException("flush of " + scope + " failed: " + r.failures());
    }
    System.out.println("FLUSH " + scope + " " + r.windows() + " " + r.appended() + " " + r.lost());
  }

  private static void drain(PostgresMemoryStore store, BufferedReader in, String worker) throws Exception {
    Engram engram = Engram.builder().borrowedStore(store).reasoner(reporting()).build();
    ready(in);
    while (true) {
      List<SourceClaim> claims = store.claimPendingSources(worker, 1, Duration.ofMinutes(5));
      if (claims.isEmpty()) {
        return;
      }
      for (SourceClaim c : claims) {
        report(c.scope(), engram.flush(Grants.of(c.scope()), FlushOptions.builder().windowRecords(4).build()));
        if (!store.releaseSourceClaim(c)) {
          throw new IllegalStateException("the claim on " + c.scope() + " ended before its release");
        }
      }
    }
  }

  private static void flushScope(PostgresMemoryStore store, BufferedReader in, String scope) throws Exception {
    Engram engram = Engram.builder().borrowedStore(store).reasoner(reporting()).build();
    ready(in);
    while (store.sourceState(scope).pending()) {
      report(scope, engram.flush(Grants.of(scope), FlushOptions.builder().windowRecords(4).maxWindows(1).build()));
    }
  }

  private static void hold(PostgresMemoryStore store, BufferedReader in, String worker, long leaseMillis)
      throws Exception {
    ready(in);
    for (TopicClaim c : store.claimDirtyTopics(worker, 10_000, Duration.ofMillis(leaseMillis))) {
      System.out.println("CLAIM " + c.scope() + " " + c.topic() + " " + c.claimedUntil());
    }
    System.out.println("HOLDING");
    System.out.flush();
    Thread.sleep(Duration.ofMinutes(10).toMillis());
  }
}

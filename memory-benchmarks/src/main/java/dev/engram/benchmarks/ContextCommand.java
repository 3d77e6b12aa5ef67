/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;

/**
 * {@code context}: the write latency when the reasoner reads context (as every model-backed one does:
 * the engine then reads the visible topics, the nearest entries and the newest of the hinted topics
 * before tagging), at a small and a large scope, per store. The reasoner is the deterministic one
 * declaring {@code usesContext()}, so the time is the engine's and the store's, not a model's. Scopes are
 * loaded through the store SPI (1,000 entries per transaction, 8 topics, 12 words out of 3,000 each, no
 * word common to all);
 * then warm-up and measured writes of new content, each with one topic hint.
 */
public final class ContextCommand {
  public static final String SUMMARY =
      "write latency with a context-reading reasoner vs scope size: [--stores memory,sqlite,postgres]"
          + " [--sizes 1000,16000] [--writes 300] [--dir DIR] [--url JDBC_URL]";

  private static final String SCOPE = "bench/context";
  private static final Grants GRANTS = Grants.of(SCOPE);
  private static final String[] TOPICS = {"travel", "food", "work", "health", "family", "music", "money", "home"};

  private ContextCommand() {}

  /** The deterministic reasoner, declaring that it reads the context the engine gathers. */
  static final class ContextReader implements Reasoner {
    private final DeterministicReasoner inner = new DeterministicReasoner();

    @Override
    public TagProposal tag(TagRequest request) {
      return inner.tag(request);
    }

    @Override
    public boolean usesContext() {
      return true;
    }
  }

  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    List<String> stores = List.of("memory", "sqlite", "postgres");
    List<Integer> sizes = List.of(1000, 16000);
    int writes = 300;
    Path dir = null;
    String url = System.getenv("ENGRAM_PG_URL");
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : null;
      if (v == null) {
        err.println(args[i] + " needs a value; " + SUMMARY);
        return 2;
      }
      switch (args[i]) {
        case "--stores" -> stores = Arrays.asList(v.split(","));
        case "--sizes" -> sizes = Arrays.stream(v.split(",")).map(Integer::valueOf).toList();
        case "--writes" -> writes = Integer.parseInt(v);
        case "--dir" -> dir = Path.of(v);
        case "--url" -> url = v;
        default -> {
          err.println("unknown option " + args[i] + "; " + SUMMARY);
          return 2;
        }
      }
      i++;
    }
    out.println("# Writes with a context-reading reasoner: " + writes + " measured writes per size");
    out.println();
    StringBuilder header = new StringBuilder("| store |");
    StringBuilder rule = new StringBuilder("|---|");
    for (int size : sizes) {
      header.append(String.format(Locale.ROOT, " %,d entries p50 ms, wall / CPU |", size));
      rule.append("---:|");
    }
    header.append(" largest / smallest, wall / CPU |");
    rule.append("---:|");
    out.println(header);
    out.println(rule);
    for (String name : stores) {
      EmbeddedPostgres embedded = null;
      try {
        String jdbc = url;
        if (name.trim().equals("postgres") && (jdbc == null || jdbc.isBlank())) {
          embedded = EmbeddedPostgres.builder().start();
          jdbc = embedded.getJdbcUrl("postgres", "postgres");
        }
        StringBuilder row = new StringBuilder("| " + name.trim() + " |");
        double[] first = null;
        double[] last = null;
        for (int size : sizes) {
          Supplier<MemoryStore> factory = factory(name.trim(), dir, jdbc);
          double[] p50;
          try (MemoryStore store = factory.get()) {
            load(store, size);
            p50 = measure(store, writes);
          }
          if (first == null) {
            first = p50;
          }
          last = p50;
          row.append(String.format(Locale.ROOT, " %.3f / %.3f |", p50[0], p50[1]));
        }
        row.append(String.format(Locale.ROOT, " %.2f× / %.2f× |", last[0] / first[0], last[1] / first[1]));
        out.println(row);
      } finally {
        if (embedded != null) {
          embedded.close();
        }
      }
    }
    return 0;
  }

  private static Supplier<MemoryStore> factory(String name, Path dir, String jdbc) throws Exception {
    switch (name) {
      case "memory":
        return InMemoryMemoryStore::new;
      case "sqlite": {
        Path base = dir != null ? dir : Files.createTempDirectory("engram-context");
        Files.createDirectories(base);
        Path file = base.resolve("context-" + System.nanoTime() + ".db");
        return () -> new SqliteMemoryStore(file);
      }
      case "postgres": {
        String schema = "bench_context_" + System.nanoTime();
        return () -> PostgresMemoryStore.builder().jdbcUrl(jdbc).schema(schema).build();
      }
      default:
        throw new IllegalArgumentException("unknown store " + name);
    }
  }

  /** Twelve words out of 3,000 and a number: no word is shared by every entry. */
  static String sentence(Random random, int n) {
    StringBuilder b = new StringBuilder();
    for (int w = 0; w < 12; w++) {
      b.append(word(random.nextInt(3000))).append(' ');
    }
    return b.append(n).append('.').toString();
  }

  private static String word(int i) {
    StringBuilder b = new StringBuilder();
    int x = i * 7 + 11;
    for (int k = 0; k < 6; k++) {
      b.append((char) ('a' + x % 23));
      x = x / 3 + k * 5 + i;
    }
    return b.toString();
  }

  private static void load(MemoryStore store, int size) {
    Random random = new Random(size);
    Instant at = Instant.now();
    String token = Long.toString(System.nanoTime(), 36);
    int[] made = {0};
    while (made[0] < size) {
      store.inTransaction(SCOPE, tx -> {
        long head = tx.headRevision(SCOPE);
        for (int s = 0; s < 1000 && made[0] < size; s++) {
          int n = made[0]++;
          long revision = ++head;
          String content = sentence(random, n);
          String id = String.format("seed-%s-%08d", token, n);
          MemoryEntry e = new MemoryEntry(id, id + "-v1", 1, null, SCOPE, content, List.of(TOPICS[n % TOPICS.length]),
              EntryType.FACT, 2, null, List.of(), null, "bench", List.of(), Integer.toHexString(content.hashCode())
              + "-" + n, EntryStatus.ACTIVE, null, null, at, at, revision);
          tx.insertVersion(e);
          tx.appendEvent(new MemoryEvent(id + "-e1", SCOPE, id, EventKind.CREATE, null, e, "bench", null, revision, at,
              "import"));
          tx.appendRevision(new Revision(SCOPE, revision, List.of(new Change(ChangeKind.APPEND, id, e.versionId())), at));
          tx.markTopicsWritten(SCOPE, e.topics(), revision, at);
        }
        return null;
      });
    }
  }

  /** The median wall-clock and thread-CPU milliseconds of a write (CPU moves less with the machine's load). */
  private static double[] measure(MemoryStore store, int writes) {
    Random random = new Random(writes);
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    List<Double> times = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    try (Engram engram = Engram.builder().store(store).reasoner(new ContextReader()).build()) {
      int warm = Math.max(20, writes / 5);
      for (int i = -warm; i < writes; i++) {
        String content = sentence(random, 1_000_000 + i + warm);
        WriteOptions options = WriteOptions.builder().topicsHint(TOPICS[Math.floorMod(i, TOPICS.length)]).build();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        engram.write(GRANTS, content, options);
        long t1 = System.nanoTime();
        long c1 = threads.getCurrentThreadCpuTime();
        if (i >= 0) {
          times.add((t1 - t0) / 1e6);
          cpu.add((c1 - c0) / 1e6);
        }
      }
    }
    times.sort(null);
    cpu.sort(null);
    return new double[] {times.get(times.size() / 2), cpu.get(cpu.size() / 2)};
  }
}

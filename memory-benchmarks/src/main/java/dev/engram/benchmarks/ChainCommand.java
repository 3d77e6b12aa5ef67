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
import dev.engram.HistoryOptions;
import dev.engram.HistoryPage;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
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
import java.util.function.Supplier;

/**
 * {@code chain}: the cost of operations on an entry with a long version chain next to the same
 * operations on a fresh entry (one version), in the same run and store. The chain is loaded through
 * the store SPI (one version, event and revision per step, as {@code correct} leaves them, 1,000 steps
 * per transaction); then {@code get}, {@code correct}, {@code retire} (+ {@code reactivate}) and the
 * first and the deepest {@code history} page run alternately on the long entry and on fresh entries,
 * each call timed with {@link System#nanoTime}. Reported: medians and the long/fresh ratio.
 */
public final class ChainCommand {
  public static final String SUMMARY =
      "operations on a long version chain vs a fresh entry: [--stores memory,sqlite,postgres] [--versions 10000]"
          + " [--ops 200] [--dir DIR] [--url JDBC_URL]";

  private static final String SCOPE = "bench/chain";
  private static final Grants GRANTS = Grants.of(SCOPE);
  private static final int STEPS_PER_TRANSACTION = 1000;

  private ChainCommand() {}

  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    List<String> stores = List.of("memory", "sqlite", "postgres");
    int versions = 10_000;
    int ops = 200;
    Path dir = null;
    String url = System.getenv("ENGRAM_PG_URL");
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--stores" -> stores = Arrays.asList(req(v, args[i]).split(","));
        case "--versions" -> versions = Integer.parseInt(req(v, args[i]));
        case "--ops" -> ops = Integer.parseInt(req(v, args[i]));
        case "--dir" -> dir = Path.of(req(v, args[i]));
        case "--url" -> url = req(v, args[i]);
        default -> {
          err.println("unknown option " + args[i] + "; " + SUMMARY);
          return 2;
        }
      }
      i++;
    }
    out.println("# Long version chains: " + versions + " versions vs a fresh entry, " + ops + " calls each");
    out.println("java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors()
        + " processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
    out.println();
    out.println("| store | operation | long chain p50 ms | fresh entry p50 ms | ratio |");
    out.println("|---|---|---:|---:|---:|");
    for (String name : stores) {
      EmbeddedPostgres embedded = null;
      try {
        Supplier<MemoryStore> factory;
        switch (name.trim()) {
          case "memory" -> factory = InMemoryMemoryStore::new;
          case "sqlite" -> {
            Path base = dir != null ? dir : Files.createTempDirectory("engram-chain");
            Files.createDirectories(base);
            Path file = base.resolve("chain-" + System.nanoTime() + ".db");
            factory = () -> new SqliteMemoryStore(file);
          }
          case "postgres" -> {
            String jdbc = url;
            if (jdbc == null || jdbc.isBlank()) {
              embedded = EmbeddedPostgres.builder().start();
              jdbc = embedded.getJdbcUrl("postgres", "postgres");
            }
            String schema = "bench_chain_" + System.currentTimeMillis();
            String at = jdbc;
            factory = () -> PostgresMemoryStore.builder().jdbcUrl(at).schema(schema).build();
          }
          default -> {
            err.println("unknown store " + name);
            return 2;
          }
        }
        try (MemoryStore store = factory.get()) {
          measure(name.trim(), store, versions, ops, out);
        }
      } finally {
        if (embedded != null) {
          embedded.close();
        }
      }
    }
    return 0;
  }

  private static String req(String v, String option) {
    if (v == null) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return v;
  }

  private static void measure(String name, MemoryStore store, int versions, int ops, PrintStream out) {
    long loadStart = System.nanoTime();
    String longId = loadChain(store, versions);
    double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
    try (Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      // the deepest page starts after the last-but-one page of the long history
      List<MemoryEvent> tail = store.events(longId);
      MemoryEvent deep = tail.get(Math.max(0, tail.size() - 1 - HistoryOptions.DEFAULT_LIMIT));
      String deepCursor = deep.revision() + ":" + deep.eventId();
      tail = null;
      int warm = Math.max(10, ops / 10);
      Timings get = new Timings();
      Timings correct = new Timings();
      Timings retire = new Timings();
      Timings first = new Timings();
      Timings deepest = new Timings();
      for (int i = -warm; i < ops; i++) {
        boolean keep = i >= 0;
        MemoryEntry fresh = engram.write(GRANTS, "Fresh entry " + i + " " + System.nanoTime()).entry();
        String freshId = fresh.entryId();
        get.time(keep, () -> engram.get(GRANTS, longId), () -> engram.get(GRANTS, freshId));
        int n = i;
        correct.time(keep, () -> engram.correct(GRANTS, longId, "The long entry, corrected again: " + n),
            () -> engram.correct(GRANTS, freshId, "The fresh entry, corrected once: " + n));
        retire.time(keep, () -> {
          MemoryEntry cur = engram.get(GRANTS, longId);
          engram.retire(GRANTS, cur.citation(), "bench");
          engram.reactivate(GRANTS, engram.get(GRANTS, longId).citation(), "bench");
        }, () -> {
          MemoryEntry cur = engram.get(GRANTS, freshId);
          engram.retire(GRANTS, cur.citation(), "bench");
          engram.reactivate(GRANTS, engram.get(GRANTS, freshId).citation(), "bench");
        });
        first.time(keep, () -> engram.history(GRANTS, longId, HistoryOptions.defaults()),
            () -> engram.history(GRANTS, freshId, HistoryOptions.defaults()));
        deepest.time(keep, () -> {
          HistoryPage page = engram.history(GRANTS, longId, HistoryOptions.defaults().after(deepCursor));
          if (page.events().isEmpty()) {
            throw new IllegalStateException("the deepest page is empty");
          }
        }, () -> engram.history(GRANTS, freshId, HistoryOptions.defaults()));
      }
      long wholeStart = System.nanoTime();
      int events = engram.history(GRANTS, longId).size();
      double wholeMs = (System.nanoTime() - wholeStart) / 1e6;
      row(out, name, "get(entryId)", get);
      row(out, name, "correct", correct);
      row(out, name, "retire + reactivate (2 gets between)", retire);
      row(out, name, "history, first page of 100", first);
      row(out, name, "history, page at event " + (events - HistoryOptions.DEFAULT_LIMIT) + " vs first page", deepest);
      out.printf(Locale.ROOT, "| %s | history, whole (%,d events, once) | %.1f | | |%n", name, events, wholeMs);
      out.printf(Locale.ROOT, "| %s | chain loaded through the SPI in %.1f s | | | |%n", name, loadSeconds);
    }
  }

  private static void row(PrintStream out, String store, String op, Timings t) {
    double a = t.median(t.chain);
    double b = t.median(t.fresh);
    out.printf(Locale.ROOT, "| %s | %s | %.3f | %.3f | %.2f× |%n", store, op, a, b, a / b);
  }

  /** Paired timings: the long entry and the fresh one, call by call. */
  private static final class Timings {
    final List<Double> chain = new ArrayList<>();
    final List<Double> fresh = new ArrayList<>();

    void time(boolean keep, Runnable onChain, Runnable onFresh) {
      long t0 = System.nanoTime();
      onChain.run();
      long t1 = System.nanoTime();
      onFresh.run();
      long t2 = System.nanoTime();
      if (keep) {
        chain.add((t1 - t0) / 1e6);
        fresh.add((t2 - t1) / 1e6);
      }
    }

    double median(List<Double> xs) {
      List<Double> sorted = new ArrayList<>(xs);
      sorted.sort(null);
      return sorted.get(sorted.size() / 2);
    }
  }

  /** Loads one entry with {@code versions} versions, each with its UPDATE event and revision. */
  private static String loadChain(MemoryStore store, int versions) {
    Instant at = Instant.now();
    String token = Long.toString(System.nanoTime(), 36);
    String entryId = "chain-" + token;
    MemoryEntry[] cur = new MemoryEntry[1];
    int[] made = {0};
    while (made[0] < versions) {
      store.inTransaction(SCOPE, tx -> {
        long head = tx.headRevision(SCOPE);
        for (int s = 0; s < STEPS_PER_TRANSACTION && made[0] < versions; s++) {
          int v = ++made[0];
          long revision = ++head;
          String content = "The long entry at version " + v + ".";
          MemoryEntry prev = cur[0];
          MemoryEntry next = new MemoryEntry(entryId, String.format("%s-%08d", entryId, v), v,
              prev == null ? null : prev.versionId(), SCOPE, content, List.of("general"), EntryType.FACT, 2, null,
              List.of(), null, "bench", List.of(), Integer.toHexString(content.hashCode()) + "-" + v,
              EntryStatus.ACTIVE, null, null, at, at, revision);
          if (prev != null) {
            tx.updateStatus(prev.versionId(), EntryStatus.SUPERSEDED, next.versionId(), at);
          }
          tx.insertVersion(next);
          tx.appendEvent(new MemoryEvent(String.format("%s-e%08d", entryId, v), SCOPE, entryId,
              prev == null ? EventKind.CREATE : EventKind.UPDATE, prev, next, "bench", null, revision, at,
              "import"));
          tx.appendRevision(new Revision(SCOPE, revision, prev == null
              ? List.of(new Change(ChangeKind.APPEND, entryId, next.versionId()))
              : List.of(new Change(ChangeKind.UPDATE, entryId, next.versionId()),
                  new Change(ChangeKind.SUPERSEDE, entryId, prev.versionId())), at));
          tx.markTopicsWritten(SCOPE, next.topics(), revision, at);
          cur[0] = next;
        }
        return null;
      });
    }
    return entryId;
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Reasoner;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * {@code inmemory-writes}: {@link Engram#write} of N distinct contents (default 100,000) into one scope
 * of an {@link InMemoryMemoryStore}, no embedder, reported per window of W writes (default 10,000):
 * writes per second, CPU and allocated bytes of the writing thread per write, GC collections and time in
 * the window; then the last window's rate against the first (is the rate flat as the scope grows?) and
 * the heap retained after a full GC per entry; "by CPU" is the first window's CPU per write over the last's, the
 * same check without the other processes on the machine. A warm-up of the same writes into a throwaway
 * store runs first. Runs once with the deterministic reasoner and once with
 * the same reasoner declaring that it reads context (the engine then reads topics, nearest entries and
 * the newest of the hinted topic before every write).
 */
public final class InMemoryWritesCommand {
  public static final String SUMMARY = "Engram.write rate, CPU and allocation per write vs scope size, in-memory store:"
      + " [--entries 100000] [--window 10000] [--reasoners plain,context]";

  private static final String SCOPE = "bench/writes";
  private static final String[] TOPICS = {"travel", "food", "work", "health", "family", "music", "money", "home"};

  private InMemoryWritesCommand() {}

  /** One window of writes. */
  record Window(int upTo, long nanos, long cpuNanos, long allocated, long collections, long gcMillis) {
    double rate(int writes) {
      return writes / (nanos / 1e9);
    }
  }

  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    int entries = 100_000;
    int window = 10_000;
    List<String> reasoners = List.of("plain", "context");
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : null;
      if (v == null) {
        err.println(args[i] + " needs a value; " + SUMMARY);
        return 2;
      }
      switch (args[i]) {
        case "--entries" -> entries = Integer.parseInt(v);
        case "--window" -> window = Integer.parseInt(v);
        case "--reasoners" -> reasoners = Arrays.asList(v.split(","));
        default -> {
          err.println("unknown option " + args[i] + "; " + SUMMARY);
          return 2;
        }
      }
      i++;
    }
    if (window <= 0 || entries < window || entries % window != 0) {
      err.println("--entries must be a positive multiple of --window; " + SUMMARY);
      return 2;
    }
    for (String r : reasoners) {
      if (!r.equals("plain") && !r.equals("context")) {
        err.println("--reasoners takes plain and/or context, was '" + r + "'");
        return 2;
      }
    }
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    threads.setThreadAllocatedMemoryEnabled(true);
    threads.setThreadCpuTimeEnabled(true);
    out.printf(Locale.ROOT, "machine: %d processors, %s %s, max heap %d MB, load average %.2f%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20, loadAverage());
    List<String> summary = new ArrayList<>();
    summary.add("| reasoner | entries | first window writes/s | last window writes/s | last / first | last / first by CPU | CPU µs/write"
        + " first / last | allocated B/write first / last | retained heap B/entry |");
    summary.add("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (String name : reasoners) {
      Reasoner reasoner = name.equals("context") ? new ContextCommand.ContextReader() : new DeterministicReasoner();
      out.printf(Locale.ROOT, "%n## %s reasoner%s, %,d writes into one scope (load average %.2f)%n", name,
          reasoner.usesContext() ? " (reads context)" : "", entries, loadAverage());
      out.println();
      out.println("| entries after window | writes/s | CPU µs/write | allocated B/write | GC collections | GC ms |");
      out.println("|--:|--:|--:|--:|--:|--:|");
      warmUp(reasoner, Math.min(entries, 20_000));
      long heapBefore = usedHeapAfterGc();
      InMemoryMemoryStore store = new InMemoryMemoryStore();
      List<Window> windows = new ArrayList<>();
      Random random = new Random(entries);
      Grants grants = Grants.of(SCOPE);
      long thread = Thread.currentThread().getId();
      try (Engram engram = Engram.builder().borrowedStore(store).reasoner(reasoner).build()) {
        int n = 0;
        while (n < entries) {
          long gcCount = gcCount();
          long gcMillis = gcMillis();
          long alloc = threads.getThreadAllocatedBytes(thread);
          long cpu = threads.getCurrentThreadCpuTime();
          long t0 = System.nanoTime();
          for (int i = 0; i < window; i++, n++) {
            WriteOptions options = WriteOptions.builder().topicsHint(TOPICS[n % TOPICS.length]).build();
            WriteResult r = engram.write(grants, ContextCommand.sentence(random, n), options);
            if (r.outcome() != WriteResult.Outcome.APPENDED) {
              throw new IllegalStateException("write " + n + " was " + r.outcome() + ", expected APPENDED");
            }
          }
          Window w = new Window(n, System.nanoTime() - t0, threads.getCurrentThreadCpuTime() - cpu,
              threads.getThreadAllocatedBytes(thread) - alloc, gcCount() - gcCount, gcMillis() - gcMillis);
          windows.add(w);
          out.printf(Locale.ROOT, "| %,d | %,.0f | %.1f | %,d | %d | %d |%n", w.upTo(), w.rate(window),
              w.cpuNanos() / 1e3 / window, w.allocated() / window, w.collections(), w.gcMillis());
        }
        long heapAfter = usedHeapAfterGc();
        double perEntry = (double) (heapAfter - heapBefore) / entries;
        Window first = windows.get(0);
        Window last = windows.get(windows.size() - 1);
        double ratio = last.rate(window) / first.rate(window);
        double cpuRatio = (double) first.cpuNanos() / last.cpuNanos();
        out.printf(Locale.ROOT, "last / first window rate %.2f, by CPU per write %.2f; retained heap %.1f MiB, %.0f B per entry"
            + " (load average %.2f)%n", ratio, cpuRatio, (heapAfter - heapBefore) / 1048576.0, perEntry, loadAverage());
        summary.add(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %,.0f | %.2f | %.2f | %.1f / %.1f | %,d / %,d | %,.0f |",
            name, entries, first.rate(window), last.rate(window), ratio, cpuRatio, first.cpuNanos() / 1e3 / window,
            last.cpuNanos() / 1e3 / window, first.allocated() / window, last.allocated() / window, perEntry));
        if (store.headRevision(SCOPE) != entries) {
          throw new IllegalStateException("head revision " + store.headRevision(SCOPE) + ", expected " + entries);
        }
      } finally {
        store.close();
      }
    }
    out.println();
    summary.forEach(out::println);
    return 0;
  }

  /** The same writes into a throwaway store first, so the first measured window is not the JIT's. */
  private static void warmUp(Reasoner reasoner, int writes) {
    Random random = new Random(-writes);
    try (Engram engram = Engram.builder().store(new InMemoryMemoryStore()).reasoner(reasoner).build()) {
      for (int n = 0; n < writes; n++) {
        WriteOptions options = WriteOptions.builder().topicsHint(TOPICS[n % TOPICS.length]).build();
        engram.write(Grants.of("bench/warm-up"), ContextCommand.sentence(random, n), options);
      }
    }
  }

  private static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  private static long gcMillis() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionTime());
    }
    return n;
  }

  private static long usedHeapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}

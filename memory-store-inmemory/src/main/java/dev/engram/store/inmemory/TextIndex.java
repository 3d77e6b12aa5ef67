/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import dev.engram.MemoryEntry;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TextAnalysis;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;

/**
 * An inverted index over the active versions of one scope, scored with BM25 over weighted fields
 * (content 1, glossary 2, disclosure 1, topics 0.5): term frequencies and lengths are summed with the
 * field weights before the usual BM25 formula (k1 = 1.2, b = 0.75). Terms are those of the one text
 * analysis every store uses ({@link TextAnalysis#fields}); query terms are looked up as given.
 *
 * <p>Each indexed version holds a slot (slots of removed versions are reused); a term's postings are
 * parallel arrays of slots and weighted frequencies. A search accumulates scores term by term into a
 * per-thread array indexed by slot and keeps the best hits in a bounded heap, so its cost is the
 * number of postings of the query terms, with no per-posting allocation.
 *
 * <p>Not thread-safe for writes; the store guards it. Concurrent searches (under the store's read
 * lock) are safe.
 */
final class TextIndex {
  static final float CONTENT = 1.0f;
  static final float GLOSSARY = 2.0f;
  static final float DISCLOSURE = 1.0f;
  static final float TOPICS = 0.5f;
  static final double K1 = 1.2;
  static final double B = 0.75;

  /** The postings of one term: slots and weighted term frequencies, unordered. */
  private static final class Postings {
    int[] slots = new int[4];
    float[] tfs = new float[4];
    int size;

    void add(int slot, float tf) {
      if (size == slots.length) {
        slots = Arrays.copyOf(slots, size * 2);
        tfs = Arrays.copyOf(tfs, size * 2);
      }
      slots[size] = slot;
      tfs[size] = tf;
      size++;
    }

    void remove(int slot) {
      for (int i = 0; i < size; i++) {
        if (slots[i] == slot) {
          size--;
          slots[i] = slots[size];
          tfs[i] = tfs[size];
          return;
        }
      }
    }
  }

  /** Per-thread score accumulator of a search: scores by slot, and the slots touched so far. */
  private static final class Scratch {
    double[] scores = new double[0];
    int[] touched = new int[0];
    int count;

    void ensure(int slots) {
      if (scores.length < slots) {
        int n = Math.max(slots, scores.length + (scores.length >> 1));
        scores = new double[n];
        touched = new int[n];
      }
    }
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private final Map<String, Postings> postings = new HashMap<>();
  private final Map<String, Integer> slotOf = new HashMap<>();
  /** slot -> versionId (null when free). */
  private String[] versionIds = new String[16];
  /** slot -> weighted length. */
  private float[] lengths = new float[16];
  private int[] free = new int[16];
  private int freeCount;
  /** Slots ever handed out: every live slot is below it. */
  private int slotCount;
  private double totalLength;

  void add(MemoryEntry e) {
    Map<String, Float> tf = new HashMap<>();
    TextAnalysis.Fields fields = TextAnalysis.fields(e);
    float len = 0;
    len += count(tf, fields.content(), CONTENT);
    len += count(tf, fields.glossary(), GLOSSARY);
    len += count(tf, fields.disclosure(), DISCLOSURE);
    len += count(tf, fields.topics(), TOPICS);
    insert(e.versionId(), tf, len, terms(e));
  }

  /** Indexes a document of one field (weight 1) made of the analysed {@code terms}, e.g. a version's retrieval keys. */
  void add(String versionId, List<String> terms) {
    Map<String, Float> tf = new HashMap<>();
    insert(versionId, tf, count(tf, terms, CONTENT), terms);
  }

  private void insert(String versionId, Map<String, Float> tf, float len, List<String> terms) {
    if (slotOf.containsKey(versionId)) {
      remove(versionId, terms);
    }
    int slot = freeCount > 0 ? free[--freeCount] : newSlot();
    versionIds[slot] = versionId;
    lengths[slot] = len;
    slotOf.put(versionId, slot);
    for (Map.Entry<String, Float> t : tf.entrySet()) {
      postings.computeIfAbsent(t.getKey(), k -> new Postings()).add(slot, t.getValue());
    }
    totalLength += len;
  }

  private int newSlot() {
    if (slotCount == versionIds.length) {
      versionIds = Arrays.copyOf(versionIds, slotCount * 2);
      lengths = Arrays.copyOf(lengths, slotCount * 2);
    }
    return slotCount++;
  }

  void remove(MemoryEntry e) {
    remove(e.versionId(), terms(e));
  }

  /** Removes the document of {@code versionId}, whose analysed terms are {@code terms} (those it was added with). */
  void remove(String versionId, List<String> terms) {
    Integer slot = slotOf.remove(versionId);
    if (slot == null) {
      return;
    }
    totalLength -= lengths[slot];
    for (String term : new HashSet<>(terms)) {
      Postings p = postings.get(term);
      if (p != null) {
        p.remove(slot);
        if (p.size == 0) {
          postings.remove(term);
        }
      }
    }
    versionIds[slot] = null;
    lengths[slot] = 0;
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, freeCount * 2);
    }
    free[freeCount++] = slot;
  }

  /** The terms that have postings. */
  java.util.Set<String> terms() {
    return java.util.Set.copyOf(postings.keySet());
  }

  boolean isEmpty() {
    return slotOf.isEmpty();
  }

  private static List<String> terms(MemoryEntry e) {
    TextAnalysis.Fields fields = TextAnalysis.fields(e);
    List<String> all = new ArrayList<>(fields.content());
    all.addAll(fields.glossary());
    all.addAll(fields.disclosure());
    all.addAll(fields.topics());
    return all;
  }

  private static float count(Map<String, Float> tf, List<String> tokens, float weight) {
    for (String t : tokens) {
      tf.merge(t, weight, Float::sum);
    }
    return tokens.size() * weight;
  }

  /**
   * The best {@code limit} versions in {@code indexes} containing any of the analysed terms {@code stems}, scored with
   * BM25, best first; equal scores go to the greater version id. {@code admit} maps a version id to
   * the entry to return, or null to skip the version (filters); it is asked only about versions that
   * would enter the top {@code limit}.
   */
  static List<ScoredEntry> search(
      Collection<TextIndex> indexes, Collection<String> stems, int limit, Function<String, MemoryEntry> admit) {
    long n = 0;
    double total = 0;
    for (TextIndex ix : indexes) {
      n += ix.slotOf.size();
      total += ix.totalLength;
    }
    if (n == 0 || limit <= 0) {
      return List.of();
    }
    double avg = Math.max(total / n, 1e-9);
    String[] terms = stems.toArray(new String[0]);
    double[] idf = new double[terms.length];
    for (int t = 0; t < terms.length; t++) {
      long df = 0;
      for (TextIndex ix : indexes) {
        Postings p = ix.postings.get(terms[t]);
        df += p == null ? 0 : p.size;
      }
      idf[t] = df == 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
    }
    // worst of the kept hits at the head: lower score first, then the smaller version id
    PriorityQueue<ScoredEntry> top = new PriorityQueue<>(Math.min(limit, 1024) + 1, TextIndex::compareHits);
    Scratch scratch = SCRATCH.get();
    for (TextIndex ix : indexes) {
      scratch.ensure(ix.slotCount);
      double[] acc = scratch.scores;
      int[] touched = scratch.touched;
      try {
        accumulate(ix, terms, idf, avg, scratch);
        // Only hits scoring at least the limit-th best of this index can enter the top, unless some of
        // those are not admitted: then the rest get their turn. Without this floor, hits arriving in
        // rising score order (postings of a rarer term after a commoner one) would each be admitted and
        // pushed through the heap.
        double floor = scratch.count > limit ? kthBest(acc, touched, scratch.count, limit) : Double.NEGATIVE_INFINITY;
        boolean rejected = offer(ix, acc, touched, scratch.count, floor, true, limit, admit, top);
        if (rejected && floor != Double.NEGATIVE_INFINITY) {
          offer(ix, acc, touched, scratch.count, floor, false, limit, admit, top);
        }
      } finally {
        for (int i = 0; i < scratch.count; i++) {
          acc[touched[i]] = 0;
        }
        scratch.count = 0;
      }
    }
    ScoredEntry[] out = top.toArray(new ScoredEntry[0]);
    Arrays.sort(out, (x, y) -> compareHits(y, x));
    return new ArrayList<>(Arrays.asList(out));
  }

  /**
   * Offers the touched slots scoring at least {@code floor} ({@code atLeast}) or below it to the top
   * heap, newest slots first: among equal scores the newer version wins, so older ties are rejected
   * before {@code admit} is asked. Returns whether {@code admit} refused any.
   */
  private static boolean offer(TextIndex ix, double[] acc, int[] touched, int count, double floor, boolean atLeast,
      int limit, Function<String, MemoryEntry> admit, PriorityQueue<ScoredEntry> top) {
    boolean rejected = false;
    for (int i = count - 1; i >= 0; i--) {
      int slot = touched[i];
      double score = acc[slot];
      if ((score >= floor) != atLeast) {
        continue;
      }
      String versionId = ix.versionIds[slot];
      if (top.size() >= limit && compare(score, versionId, top.peek()) <= 0) {
        continue;
      }
      MemoryEntry entry = admit.apply(versionId);
      if (entry == null) {
        rejected = true;
        continue;
      }
      top.add(new ScoredEntry(entry, score));
      if (top.size() > limit) {
        top.poll();
      }
    }
    return rejected;
  }

  /** The {@code k}-th greatest score of the {@code count > k} touched slots, by a min-heap of {@code k} doubles. */
  static double kthBest(double[] acc, int[] touched, int count, int k) {
    double[] heap = new double[k];
    for (int i = 0; i < k; i++) {
      // sift up
      double v = acc[touched[i]];
      int at = i;
      while (at > 0) {
        int parent = (at - 1) >>> 1;
        if (heap[parent] <= v) {
          break;
        }
        heap[at] = heap[parent];
        at = parent;
      }
      heap[at] = v;
    }
    for (int i = k; i < count; i++) {
      double v = acc[touched[i]];
      if (v <= heap[0]) {
        continue;
      }
      // replace the least and sift down
      int at = 0;
      while (true) {
        int child = 2 * at + 1;
        if (child >= k) {
          break;
        }
        if (child + 1 < k && heap[child + 1] < heap[child]) {
          child++;
        }
        if (heap[child] >= v) {
          break;
        }
        heap[at] = heap[child];
        at = child;
      }
      heap[at] = v;
    }
    return heap[0];
  }

  /** Adds the BM25 contribution of every posting of {@code terms} to the scratch scores, noting each slot touched. */
  private static void accumulate(TextIndex ix, String[] terms, double[] idf, double avg, Scratch scratch) {
    double[] acc = scratch.scores;
    int[] touched = scratch.touched;
    float[] lengths = ix.lengths;
    for (int t = 0; t < terms.length; t++) {
      Postings p = idf[t] == 0 ? null : ix.postings.get(terms[t]);
      if (p == null) {
        continue;
      }
      double w = idf[t];
      int[] slots = p.slots;
      float[] tfs = p.tfs;
      for (int i = 0, size = p.size; i < size; i++) {
        int slot = slots[i];
        double tf = tfs[i];
        double dl = lengths[slot];
        double s = w * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avg));
        if (acc[slot] == 0) {
          touched[scratch.count++] = slot;
        }
        acc[slot] += s;
      }
    }
  }

  private static int compareHits(ScoredEntry a, ScoredEntry b) {
    return compare(a.score(), a.entry().versionId(), b);
  }

  private static int compare(double score, String versionId, ScoredEntry other) {
    int c = Double.compare(score, other.score());
    return c != 0 ? c : versionId.compareTo(other.entry().versionId());
  }
}

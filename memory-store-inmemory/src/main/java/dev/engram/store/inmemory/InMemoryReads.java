/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import dev.engram.CapturedSource;
import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Namespaces;
import dev.engram.Revision;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.SourceState;
import dev.engram.spi.StoreReader;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TextAnalysis;
import dev.engram.spi.TopicState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory store's state and its queries, each written once: the store runs them under its read
 * lock, a transaction directly on the state it holds the write lock of.
 */
abstract class InMemoryReads implements StoreReader {

  /** Where an event lies in its entry's history. */
  record EventPosition(long revision, String eventId) implements Comparable<EventPosition> {
    @Override
    public int compareTo(EventPosition o) {
      return revision != o.revision ? Long.compare(revision, o.revision) : eventId.compareTo(o.eventId);
    }
  }

  /** Runs {@code query} on the state with whatever guard this reader needs. */
  abstract <T> T read(Function<Data, T> query);

  static final class TopicRow {
    @Nullable String blurb;
    long lastWrite;
    long lastCurated;
    @Nullable Instant lastUpdatedAt;

    TopicRow copy() {
      TopicRow r = new TopicRow();
      r.blurb = blurb;
      r.lastWrite = lastWrite;
      r.lastCurated = lastCurated;
      r.lastUpdatedAt = lastUpdatedAt;
      return r;
    }

    @Override
    public String toString() {
      return "TopicRow[blurb=" + blurb + ", lastWrite=" + lastWrite + ", lastCurated=" + lastCurated
          + ", lastUpdatedAt=" + lastUpdatedAt + "]";
    }
  }

  /** All state; only touched under the lock. */
  static final class Data {
    final Map<String, MemoryEntry> versions = new HashMap<>();
    final Map<String, TreeMap<Integer, String>> entryVersions = new HashMap<>();
    /** scope -> versionId -> version (sorted by id, i.e. by creation). */
    final Map<String, TreeMap<String, MemoryEntry>> byScope = new HashMap<>();
    final Map<String, Long> heads = new HashMap<>();
    final Map<String, List<Revision>> revisions = new HashMap<>();
    final Map<String, MemoryEvent> events = new HashMap<>();
    /** entryId -> its events' ids in history order (revision, then event id). */
    final Map<String, TreeMap<EventPosition, String>> entryEvents = new HashMap<>();
    final Map<String, TreeMap<String, TopicRow>> topics = new HashMap<>();
    /** scope -> ("h:" + content hash | "p:" + path) -> active versionIds, for dedupe and path lookups. */
    final Map<String, Map<String, TreeSet<String>>> activeKeys = new HashMap<>();
    /** scope -> topic -> ids of the active versions carrying it: topic reads and counts without a scan. */
    final Map<String, Map<String, TreeSet<String>>> activeTopics = new HashMap<>();
    /** scope -> full-text index of its active versions. */
    final Map<String, TextIndex> text = new HashMap<>();
    /** versionId -> its retrieval keys (any status). */
    final Map<String, List<String>> keys = new HashMap<>();
    /** scope -> full-text index of the retrieval keys of its active versions. */
    final Map<String, TextIndex> keyText = new HashMap<>();
    /** profile -> versionId -> vectors of that version's views. */
    final Map<String, Map<String, List<StoredVector>>> vectors = new HashMap<>();
    /** Moved by transactions that store vectors of versions committed earlier (reindex). */
    long vectorEpoch;
    /** scope -> position -> captured source. */
    final Map<String, TreeMap<Long, CapturedSource>> sources = new HashMap<>();
    /** scope -> source id -> position. */
    final Map<String, Map<String, Long>> sourceIds = new HashMap<>();
    /** scope -> last position and cursor. */
    final Map<String, SourceState> sourceStates = new HashMap<>();
    /** scope -> incubation cursor (absent: 0). */
    final Map<String, Long> incubation = new HashMap<>();
    /** versionId -> experience version. */
    final Map<String, dev.engram.Experience> experience = new HashMap<>();
    /** experienceId -> version number -> versionId. */
    final Map<String, TreeMap<Integer, String>> experienceVersions = new HashMap<>();
    /** versionId -> the analysed terms of an active experience version: the experience full-text index. */
    final Map<String, List<String>> experienceText = new HashMap<>();
    /** item id -> review item, ordered by id. */
    final TreeMap<String, dev.engram.ReviewItem> reviewItems = new TreeMap<>();
    /** scope -> (day, provider, model, job) -> the model usage counters, ordered. */
    final Map<String, TreeMap<UsageKey, dev.engram.ModelUsageRow>> usage = new HashMap<>();

    /**
     * Every entry of every map above whose rendering contains {@code needle}, as {@code "<map>: <entry>"}
     * (the full-text index by its terms): what the store holds, for the erasure layer of the TCK.
     */
    List<String> rowsMentioning(String needle) {
      List<String> out = new ArrayList<>();
      scan(out, "versions", versions, needle);
      scan(out, "entryVersions", entryVersions, needle);
      scan(out, "byScope", byScope, needle);
      scan(out, "heads", heads, needle);
      scan(out, "revisions", revisions, needle);
      scan(out, "events", events, needle);
      scan(out, "entryEvents", entryEvents, needle);
      scan(out, "topics", topics, needle);
      scan(out, "activeKeys", activeKeys, needle);
      scan(out, "activeTopics", activeTopics, needle);
      scan(out, "vectors", vectors, needle);
      scan(out, "sources", sources, needle);
      scan(out, "sourceIds", sourceIds, needle);
      scan(out, "sourceStates", sourceStates, needle);
      scan(out, "incubation", incubation, needle);
      scan(out, "experience", experience, needle);
      scan(out, "experienceVersions", experienceVersions, needle);
      scan(out, "experienceText", experienceText, needle);
      scan(out, "reviewItems", reviewItems, needle);
      scan(out, "usage", usage, needle);
      for (Map.Entry<String, TextIndex> index : text.entrySet()) {
        for (String term : index.getValue().terms()) {
          if ((index.getKey() + " " + term).contains(needle)) {
            out.add("text: " + index.getKey() + " " + term);
          }
        }
      }
      return out;
    }

    private static void scan(List<String> out, String name, Map<?, ?> map, String needle) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String row = e.getKey() + "=" + e.getValue();
        if (row.contains(needle)) {
          out.add(name + ": " + row);
        }
      }
    }
  }


  // ---- StoreReader, each read written once for the store and its transactions

  @Override
  public long headRevision(String scope) {
    return read(d -> Queries.headRevision(d, scope));
  }

  @Override
  public Optional<MemoryEntry> version(String versionId) {
    return read(d -> Optional.ofNullable(d.versions.get(versionId)));
  }

  @Override
  public List<MemoryEntry> versions(String entryId) {
    return read(d -> Queries.versions(d, entryId));
  }

  @Override
  public Optional<MemoryEntry> currentVersion(String entryId) {
    return read(d -> Queries.currentVersion(d, entryId));
  }

  @Override
  public Optional<MemoryEntry> findActiveByHash(String scope, String contentHash) {
    return read(d -> Queries.findActive(d, scope, "h:" + contentHash));
  }

  @Override
  public Optional<MemoryEntry> findActiveByPath(String scope, String path) {
    return read(d -> Queries.findActive(d, scope, "p:" + path));
  }

  @Override
  public List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit) {
    return read(d -> Queries.activeByTopic(d, scopes, topic, limit));
  }

  @Override
  public List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses) {
    return read(d -> Queries.versionsIn(d, scopes, statuses));
  }

  @Override
  public List<MemoryEvent> events(String entryId) {
    return read(d -> Queries.events(d, entryId));
  }

  @Override
  public List<MemoryEvent> events(String entryId, long afterRevision, String afterEventId, int limit) {
    return read(d -> Queries.events(d, entryId, afterRevision, afterEventId, limit));
  }

  @Override
  public Optional<MemoryEvent> event(String eventId) {
    return read(d -> Optional.ofNullable(d.events.get(eventId)));
  }

  @Override
  public List<Revision> revisions(String scope, long sinceExclusive, int limit) {
    return read(d -> Queries.revisions(d, scope, sinceExclusive, limit));
  }

  @Override
  public List<TopicState> topics(Collection<String> scopes) {
    return read(d -> Queries.topics(d, scopes));
  }

  @Override
  public List<TopicState> dirtyTopics(int limit) {
    return read(d -> Queries.dirtyTopics(d, limit));
  }

  @Override
  public int countActiveWithPriority(String namespace, int priority) {
    return read(d -> Queries.countActiveWithPriority(d, namespace, priority));
  }

  @Override
  public boolean hasScope(String scope) {
    return !read(d -> Queries.scopes(d, scope, false)).isEmpty();
  }

  @Override
  public List<String> scopesFrom(String prefix) {
    return read(d -> Queries.scopes(d, prefix, true));
  }

  @Override
  public List<ScoredEntry> searchFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    return read(d -> Queries.searchFullText(d, d.text, scopes, query, limit));
  }

  @Override
  public Optional<dev.engram.Experience> experienceVersion(String versionId) {
    return read(d -> Optional.ofNullable(d.experience.get(versionId)));
  }

  @Override
  public List<dev.engram.Experience> experienceVersions(String experienceId) {
    return read(d -> Queries.experienceVersions(d, experienceId));
  }

  @Override
  public List<dev.engram.Experience> experiences(
      Collection<String> scopes, Set<dev.engram.ExperienceStatus> statuses, int limit) {
    return read(d -> Queries.experiences(d, scopes, statuses, limit));
  }

  @Override
  public List<dev.engram.spi.ScoredExperience> searchExperience(Collection<String> scopes, FullTextQuery query,
      int limit) {
    return read(d -> Queries.searchExperience(d, scopes, query, limit));
  }

  @Override
  public Optional<dev.engram.ReviewItem> reviewItem(String itemId) {
    return read(d -> Optional.ofNullable(d.reviewItems.get(itemId)));
  }

  @Override
  public List<dev.engram.ReviewItem> reviewItems(
      Collection<String> scopes, Set<dev.engram.ReviewState> states, String afterId, int limit) {
    return read(d -> Queries.reviewItems(d, scopes, states, afterId, limit));
  }

  /** The key of a model usage counter within its scope, in the order rows are returned. */
  record UsageKey(java.time.LocalDate day, String provider, String model, String job) implements Comparable<UsageKey> {
    private static final java.util.Comparator<UsageKey> ORDER = java.util.Comparator.comparing(UsageKey::day)
        .thenComparing(UsageKey::provider).thenComparing(UsageKey::model).thenComparing(UsageKey::job);

    static UsageKey of(dev.engram.ModelUsageRow row) {
      return new UsageKey(row.day(), row.provider(), row.model(), row.job());
    }

    @Override
    public int compareTo(UsageKey o) {
      return ORDER.compare(this, o);
    }
  }

  @Override
  public List<dev.engram.ModelUsageRow> modelUsage(
      Collection<String> scopes, java.time.@Nullable LocalDate from, java.time.@Nullable LocalDate to) {
    java.util.Objects.requireNonNull(scopes, "scopes");
    return read(d -> {
      List<dev.engram.ModelUsageRow> out = new ArrayList<>();
      for (String scope : new TreeSet<>(scopes)) {
        TreeMap<UsageKey, dev.engram.ModelUsageRow> rows = d.usage.get(scope);
        if (rows == null) {
          continue;
        }
        for (dev.engram.ModelUsageRow r : rows.values()) {
          if ((from == null || !r.day().isBefore(from)) && (to == null || !r.day().isAfter(to))) {
            out.add(r);
          }
        }
      }
      return out;
    });
  }

  @Override
  public long incubationCursor(String scope) {
    return read(d -> d.incubation.getOrDefault(scope, 0L));
  }

  @Override
  public List<ScoredEntry> searchKeys(Collection<String> scopes, FullTextQuery query, int limit) {
    return read(d -> Queries.searchFullText(d, d.keyText, scopes, query, limit));
  }

  @Override
  public Map<String, List<String>> keysOf(Collection<String> versionIds) {
    return read(d -> {
      Map<String, List<String>> out = new LinkedHashMap<>();
      for (String id : versionIds) {
        List<String> k = d.keys.get(id);
        if (k != null) {
          out.put(id, k);
        }
      }
      return out;
    });
  }

  @Override
  public List<StoredVector> activeVectors(String scope, String profileId) {
    return read(d -> Queries.activeVectors(d, scope, profileId));
  }

  @Override
  public List<StoredVector> vectorsOf(String scope, String profileId, Collection<String> versionIds) {
    return read(d -> Queries.vectorsOf(d, scope, profileId, versionIds));
  }

  @Override
  public long vectorEpoch() {
    return read(d -> d.vectorEpoch);
  }

  @Override
  public int countActiveWithoutVectors(String scope, String profileId) {
    return read(d -> Queries.countActiveWithoutVectors(d, scope, profileId));
  }

  @Override
  public SourceState sourceState(String scope) {
    return read(d -> Queries.sourceState(d, scope));
  }

  @Override
  public Optional<CapturedSource> source(String scope, String sourceId) {
    return read(d -> Queries.source(d, scope, sourceId));
  }

  @Override
  public List<CapturedSource> sources(String scope, SourceFilter filter) {
    return read(d -> Queries.sources(d, scope, filter));
  }


  /** Queries over {@link Data}; the caller holds a lock. */
  static final class Queries {
    static long headRevision(Data d, String scope) {
      return d.heads.getOrDefault(scope, 0L);
    }

    static List<MemoryEntry> versions(Data d, String entryId) {
      TreeMap<Integer, String> ids = d.entryVersions.get(entryId);
      if (ids == null) {
        return List.of();
      }
      List<MemoryEntry> out = new ArrayList<>(ids.size());
      for (String id : ids.values()) {
        out.add(d.versions.get(id));
      }
      return out;
    }

    static Optional<MemoryEntry> currentVersion(Data d, String entryId) {
      TreeMap<Integer, String> ids = d.entryVersions.get(entryId);
      return ids == null || ids.isEmpty() ? Optional.empty() : Optional.of(d.versions.get(ids.lastEntry().getValue()));
    }

    /** The newest active version of {@code scope} under {@code key} ({@code h:hash} or {@code p:path}). */
    static Optional<MemoryEntry> findActive(Data d, String scope, String key) {
      TreeSet<String> ids = d.activeKeys.getOrDefault(scope, Map.of()).get(key);
      return ids == null || ids.isEmpty() ? Optional.empty() : Optional.of(d.versions.get(ids.last()));
    }

    static List<String> keys(MemoryEntry e) {
      return e.path() == null ? List.of("h:" + e.contentHash()) : List.of("h:" + e.contentHash(), "p:" + e.path());
    }

    static List<MemoryEntry> activeByTopic(Data d, Collection<String> scopes, String topic, int limit) {
      TreeSet<String> best = new TreeSet<>(java.util.Comparator.reverseOrder());
      for (String scope : new HashSet<>(scopes)) {
        TreeSet<String> ids = d.activeTopics.getOrDefault(scope, Map.of()).get(topic);
        if (ids == null) {
          continue;
        }
        int taken = 0;
        for (Iterator<String> it = ids.descendingIterator(); it.hasNext() && taken < limit; taken++) {
          best.add(it.next());
        }
      }
      List<MemoryEntry> out = new ArrayList<>(Math.min(limit, best.size()));
      Iterator<String> it = best.iterator();
      while (it.hasNext() && out.size() < limit) {
        out.add(d.versions.get(it.next()));
      }
      return out;
    }

    static List<MemoryEntry> versionsIn(Data d, Collection<String> scopes, Set<EntryStatus> statuses) {
      List<MemoryEntry> out = new ArrayList<>();
      for (String scope : new HashSet<>(scopes)) {
        TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
        if (s != null) {
          for (MemoryEntry e : s.values()) {
            if (statuses.contains(e.status())) {
              out.add(e);
            }
          }
        }
      }
      return out;
    }

    static List<MemoryEvent> events(Data d, String entryId) {
      return events(d, entryId, Long.MIN_VALUE, "", Integer.MAX_VALUE);
    }

    static List<MemoryEvent> events(Data d, String entryId, long afterRevision, String afterEventId, int limit) {
      TreeMap<EventPosition, String> ids = d.entryEvents.get(entryId);
      List<MemoryEvent> out = new ArrayList<>();
      if (ids == null) {
        return out;
      }
      for (String id : ids.tailMap(new EventPosition(afterRevision, afterEventId), false).values()) {
        if (out.size() >= limit) {
          break;
        }
        out.add(d.events.get(id));
      }
      return out;
    }

    static List<Revision> revisions(Data d, String scope, long since, int limit) {
      List<Revision> all = d.revisions.getOrDefault(scope, List.of());
      List<Revision> out = new ArrayList<>();
      for (Revision r : all) {
        if (r.revision() > since && out.size() < limit) {
          out.add(r);
        }
      }
      return out;
    }

    static List<TopicState> topics(Data d, Collection<String> scopes) {
      List<TopicState> out = new ArrayList<>();
      for (String scope : new TreeSet<>(scopes)) {
        TreeMap<String, TopicRow> rows = d.topics.get(scope);
        if (rows != null) {
          rows.forEach((topic, row) -> out.add(state(d, scope, topic, row)));
        }
      }
      return out;
    }

    static List<TopicState> dirtyTopics(Data d, int limit) {
      List<TopicState> out = new ArrayList<>();
      for (String scope : new TreeSet<>(d.topics.keySet())) {
        for (Map.Entry<String, TopicRow> e : d.topics.get(scope).entrySet()) {
          if (e.getValue().lastWrite > e.getValue().lastCurated && out.size() < limit) {
            out.add(state(d, scope, e.getKey(), e.getValue()));
          }
        }
      }
      return out;
    }

    static TopicState state(Data d, String scope, String topic, TopicRow row) {
      TreeSet<String> ids = d.activeTopics.getOrDefault(scope, Map.of()).get(topic);
      int count = ids == null ? 0 : ids.size();
      return new TopicState(scope, topic, count, row.blurb, row.lastWrite, row.lastCurated, row.lastUpdatedAt);
    }

    static int countActiveWithPriority(Data d, String scope, int priority) {
      int n = 0;
      for (MemoryEntry e : d.byScope.getOrDefault(scope, new TreeMap<>()).values()) {
        if (e.isActive() && e.priority() == priority) {
          n++;
        }
      }
      return n;
    }

    /** The analysed terms of a version's retrieval keys: its key document, the keys joined by a space. */
    static List<String> keyTerms(List<String> keys) {
      return TextAnalysis.terms(String.join(" ", keys));
    }

    static List<ScoredEntry> searchFullText(Data d, Map<String, TextIndex> index, Collection<String> scopes,
        FullTextQuery query, int limit) {
      List<TextIndex> indexes = new ArrayList<>();
      for (String scope : new HashSet<>(scopes)) {
        TextIndex ix = index.get(scope);
        if (ix != null) {
          indexes.add(ix);
        }
      }
      // the query's terms are analysed already (TextAnalysis), exactly as the index's
      return TextIndex.search(indexes, new LinkedHashSet<>(query.terms()), limit, versionId -> {
        MemoryEntry e = d.versions.get(versionId);
        if (e == null || !e.isActive()) {
          return null;
        }
        if (!query.topics().isEmpty() && e.topics().stream().noneMatch(query.topics()::contains)) {
          return null;
        }
        if (!query.types().isEmpty() && !query.types().contains(e.type())) {
          return null;
        }
        // the event-time filter, like the others, is asked before a version takes a place in the top
        return query.occurredIn(e.occurredAt()) ? e : null;
      });
    }

    static List<StoredVector> activeVectors(Data d, String scope, String profileId) {
      Map<String, List<StoredVector>> byVersion = d.vectors.getOrDefault(profileId, Map.of());
      List<StoredVector> out = new ArrayList<>();
      TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
      if (s != null) {
        for (MemoryEntry e : s.values()) {
          if (e.isActive()) {
            out.addAll(byVersion.getOrDefault(e.versionId(), List.of()));
          }
        }
      }
      return out;
    }

    static List<StoredVector> vectorsOf(Data d, String scope, String profileId, Collection<String> versionIds) {
      Map<String, List<StoredVector>> byVersion = d.vectors.getOrDefault(profileId, Map.of());
      List<StoredVector> out = new ArrayList<>();
      for (String id : versionIds) {
        MemoryEntry e = d.versions.get(id);
        if (e != null && e.scope().equals(scope)) {
          out.addAll(byVersion.getOrDefault(id, List.of()));
        }
      }
      return out;
    }

    static int countActiveWithoutVectors(Data d, String scope, String profileId) {
      Map<String, List<StoredVector>> byVersion = d.vectors.getOrDefault(profileId, Map.of());
      int n = 0;
      TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
      if (s != null) {
        for (MemoryEntry e : s.values()) {
          if (e.isActive() && !byVersion.containsKey(e.versionId())) {
            n++;
          }
        }
      }
      return n;
    }

    static SourceState sourceState(Data d, String scope) {
      return d.sourceStates.getOrDefault(scope, SourceState.EMPTY);
    }

    static Optional<CapturedSource> source(Data d, String scope, String sourceId) {
      Long position = d.sourceIds.getOrDefault(scope, Map.of()).get(sourceId);
      return position == null ? Optional.empty() : Optional.of(d.sources.get(scope).get(position));
    }

    static List<CapturedSource> sources(Data d, String scope, SourceFilter f) {
      TreeMap<Long, CapturedSource> all = d.sources.get(scope);
      List<CapturedSource> out = new ArrayList<>();
      if (all == null) {
        return out;
      }
      for (CapturedSource s : all.tailMap(f.afterPosition(), false).values()) {
        if ((f.sessionId() == null || f.sessionId().equals(s.sessionId()))
            && (f.from() == null || !s.occurredAt().isBefore(f.from()))
            && (f.to() == null || s.occurredAt().isBefore(f.to()))) {
          out.add(s);
          if (out.size() >= f.limit()) {
            break;
          }
        }
      }
      return out;
    }

    static List<dev.engram.Experience> experienceVersions(Data d, String experienceId) {
      List<dev.engram.Experience> out = new ArrayList<>();
      for (String id : d.experienceVersions.getOrDefault(experienceId, new TreeMap<>()).values()) {
        out.add(d.experience.get(id));
      }
      return out;
    }

    static List<dev.engram.Experience> experiences(Data d, Collection<String> scopes,
        Set<dev.engram.ExperienceStatus> statuses, int limit) {
      Set<String> wanted = new HashSet<>(scopes);
      List<dev.engram.Experience> out = new ArrayList<>();
      for (dev.engram.Experience e : d.experience.values()) {
        if (wanted.contains(e.scope()) && statuses.contains(e.status())) {
          out.add(e);
        }
      }
      out.sort(java.util.Comparator.comparing(dev.engram.Experience::scope)
          .thenComparing(dev.engram.Experience::experienceId).thenComparingInt(dev.engram.Experience::version));
      return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
    }

    /**
     * BM25 (k1 1.2, b 0.75) over the documents of the active experience versions of the scopes, ties by
     * version id descending: the reference the SQL stores' own full-text ranking follows.
     */
    static List<dev.engram.spi.ScoredExperience> searchExperience(Data d, Collection<String> scopes,
        FullTextQuery query, int limit) {
      Set<String> wanted = new HashSet<>(scopes);
      Set<String> terms = new LinkedHashSet<>(query.terms());
      if (terms.isEmpty() || limit < 1) {
        return List.of();
      }
      List<Map.Entry<String, List<String>>> docs = new ArrayList<>();
      double total = 0;
      for (Map.Entry<String, List<String>> e : d.experienceText.entrySet()) {
        if (wanted.contains(d.experience.get(e.getKey()).scope())) {
          docs.add(e);
          total += e.getValue().size();
        }
      }
      if (docs.isEmpty()) {
        return List.of();
      }
      double avg = Math.max(total / docs.size(), 1e-9);
      Map<String, Integer> df = new HashMap<>();
      for (Map.Entry<String, List<String>> doc : docs) {
        for (String t : new HashSet<>(doc.getValue())) {
          if (terms.contains(t)) {
            df.merge(t, 1, Integer::sum);
          }
        }
      }
      List<dev.engram.spi.ScoredExperience> out = new ArrayList<>();
      for (Map.Entry<String, List<String>> doc : docs) {
        Map<String, Integer> tf = new HashMap<>();
        for (String t : doc.getValue()) {
          if (terms.contains(t)) {
            tf.merge(t, 1, Integer::sum);
          }
        }
        if (tf.isEmpty()) {
          continue;
        }
        double score = 0;
        for (Map.Entry<String, Integer> t : tf.entrySet()) {
          int n = df.get(t.getKey());
          double idf = Math.log(1 + (docs.size() - n + 0.5) / (n + 0.5));
          double f = t.getValue();
          score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * doc.getValue().size() / avg));
        }
        out.add(new dev.engram.spi.ScoredExperience(d.experience.get(doc.getKey()), score));
      }
      out.sort((a, b) -> a.score() != b.score() ? Double.compare(b.score(), a.score())
          : b.experience().versionId().compareTo(a.experience().versionId()));
      return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
    }

    static List<dev.engram.ReviewItem> reviewItems(Data d, Collection<String> scopes,
        Set<dev.engram.ReviewState> states, String afterId, int limit) {
      Set<String> wanted = new HashSet<>(scopes);
      List<dev.engram.ReviewItem> out = new ArrayList<>();
      for (dev.engram.ReviewItem item : d.reviewItems.tailMap(afterId, false).values()) {
        if (out.size() >= limit) {
          break;
        }
        if (wanted.contains(item.scope()) && states.contains(item.state())) {
          out.add(item);
        }
      }
      return out;
    }

    static List<String> scopes(Data d, String prefix, boolean recursive) {
      TreeSet<String> out = new TreeSet<>();
      for (dev.engram.Experience e : d.experience.values()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, e.scope()) : e.scope().equals(prefix)) {
          out.add(e.scope());
        }
      }
      for (dev.engram.ReviewItem i : d.reviewItems.values()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, i.scope()) : i.scope().equals(prefix)) {
          out.add(i.scope());
        }
      }
      for (String s : d.sourceStates.keySet()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, s) : s.equals(prefix)) {
          out.add(s);
        }
      }
      for (String s : d.byScope.keySet()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, s) : s.equals(prefix)) {
          out.add(s);
        }
      }
      for (String s : d.topics.keySet()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, s) : s.equals(prefix)) {
          out.add(s);
        }
      }
      for (String s : d.usage.keySet()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, s) : s.equals(prefix)) {
          out.add(s);
        }
      }
      return List.copyOf(out);
    }
  }

}

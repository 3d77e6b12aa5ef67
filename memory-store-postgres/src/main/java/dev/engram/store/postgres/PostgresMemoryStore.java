/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.engram.EntryStatus;
import dev.engram.ErrorCode;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.StoreException;
import dev.engram.spi.EntryJson;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.WorkClaim;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TextAnalysis;
import dev.engram.spi.TopicState;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MemoryStore} on PostgreSQL, shared safely by many processes.
 *
 * <ul>
 *   <li>Transactions on a scope lock that scope's head row ({@code SELECT … FOR UPDATE}), so writers to
 *       one scope serialize across processes and revisions stay gap-free; writers to different scopes
 *       run in parallel. A write to a scope whose head this store knows from its own last transaction
 *       there is one round trip: lock, check of the expected head and content hashes, writes and
 *       {@code COMMIT} together (see {@link #inTransaction(String, Collection, StoreWork)}).
 *   <li>The schema is versioned: on start the store applies missing migrations under an advisory lock
 *       (any number of processes may start at once) and refuses a schema newer than it knows.
 *   <li>Plans do not wait for autovacuum: after every {@value #ANALYZE_AFTER_VERSIONS} versions (or a
 *       fifth of the table, whichever is more; the table's size is the planner's estimate when the store
 *       opens, plus what it analyzed since) committed through the store, the transaction that crossed
 *       the mark refreshes the planner statistics ({@code ANALYZE}) after its commit, so a search right
 *       after a bulk write or an import uses the full-text index instead of a plan made for empty tables.
 *   <li>Maintenance workers in any number of processes take leased claims on dirty topics and on scopes with
 *       pending sources ({@link StoreCapability#WORK_CLAIMS}: {@link #claimDirtyTopics(String, Collection, int,
 *       Duration)}, {@link #claimPendingSources(String, Collection, int, Duration)}, the store-wide
 *       {@link #claimDirtyTopics(String, int, Duration)}); no two hold the same item at once.
 * </ul>
 *
 * <p>Build it from a JDBC URL (the store then owns a HikariCP pool and closes it) or from a
 * {@link DataSource} the application owns. Thread-safe.
 *
 * <pre>{@code
 * try (PostgresMemoryStore store = new PostgresMemoryStore("jdbc:postgresql://db/app?user=app&password=...")) {
 *   Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build();
 *   ...
 * }
 * }</pre>
 */
public final class PostgresMemoryStore extends ConnectionReads implements MemoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);
  /**
   * The planner statistics are refreshed ({@code ANALYZE}) once this many versions were committed since
   * the last refresh, or a fifth of the versions counted then, whichever is more: a bulk write or an
   * import is planned on real row counts from then on, not on the empty tables autovacuum last saw.
   */
  static final int ANALYZE_AFTER_VERSIONS = 500;
  /** The table prefix used unless the builder sets another. */
  public static final String DEFAULT_TABLE_PREFIX = "engram_";
  /** The default of {@link Builder#fullTextCandidates}: the most versions one full-text search ranks. */
  public static final int DEFAULT_FULL_TEXT_CANDIDATES = 1200;

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");
  private static final int MAX_PREFIX_CHARS = 30;
  private static final int MAX_SCHEMA_CHARS = 63;
  private static final int MAX_WORKER_ID_CHARS = 256;
  private static final int MAX_CLAIMS = 10_000;
  /**
   * Queued writes sent at the latest when they make this many statements (a run in a many-row form
   * counts once), to keep one batch of bounded size.
   */
  private static final int MAX_DEFERRED = 200;
  /** Queued writes sent at the latest when a run in a many-row form has this many rows. */
  private static final int MAX_MANY_ROWS = 2_000;
  /** The shortest run of one queued statement that is sent as a JDBC batch instead of in the joined string. */
  private static final int MIN_BATCH_RUN = 8;
  /** The shortest run of one queued write with a many-row form that is sent as one statement in that form. */
  private static final int MIN_MANY_ROWS = 2;
  /** The SQLSTATE of {@code lock_expected_head} when the head or a content hash is not as expected. */
  private static final String UNEXPECTED_HEAD = "EH001";
  private static final Comparator<TopicClaim> CLAIM_ORDER =
      Comparator.comparing(TopicClaim::scope).thenComparing(TopicClaim::topic);

  private final DataSource dataSource;
  private final @Nullable HikariDataSource ownedPool;
  private final String schema;
  private final String tablePrefix;
  private final Sql sql;
  private final Reads reads;
  private final ExperienceSql experience;
  private final UsageSql usage;
  private final ManyRows insertVersions;
  private final ManyRows insertEvents;
  private final ManyRows insertKeys;
  private final @Nullable Runnable afterClose;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The innermost transaction running on each thread, for nesting. */
  private final ThreadLocal<Tx> current = new ThreadLocal<>();
  /** Versions committed through this store since it last refreshed the planner statistics. */
  private final AtomicLong writtenSinceAnalyze = new AtomicLong();
  /** About how many versions the tables held at the last refresh (what this store wrote, at least). */
  private volatile long analyzedVersions;
  private final AtomicBoolean analyzing = new AtomicBoolean();
  private volatile boolean analyzeRefused;
  /** The heads this store last saw, which a write transaction may expect instead of reading first. */
  private final ExpectedHeads heads = new ExpectedHeads();

  /**
   * A store on the database at {@code jdbcUrl} ({@code jdbc:postgresql:…}, credentials as URL
   * parameters), with its own connection pool, the default table prefix, and migrations applied.
   *
   * @param jdbcUrl the database URL, starting with {@code jdbc:postgresql:}
   * @throws NullPointerException if {@code jdbcUrl} is null
   * @throws InvalidInputException if it does not start with {@code jdbc:postgresql:}
   * @throws StoreException {@code STORE_UNAVAILABLE} when the database cannot be reached, {@code
   *     STORE_INCOMPATIBLE} when its schema is newer than this library
   */
  public PostgresMemoryStore(String jdbcUrl) {
    this(builder().jdbcUrl(jdbcUrl));
  }

  /**
   * A store on connections from {@code dataSource}, with the default table prefix and migrations applied.
   *
   * @param dataSource the application's connections; the store never closes them
   * @throws NullPointerException if {@code dataSource} is null
   * @throws StoreException {@code STORE_UNAVAILABLE} when the database cannot be reached, {@code
   *     STORE_INCOMPATIBLE} when its schema is newer than this library
   */
  public PostgresMemoryStore(DataSource dataSource) {
    this(builder().dataSource(dataSource));
  }

  private PostgresMemoryStore(Builder b) {
    this.schema = b.schema;
    this.tablePrefix = b.tablePrefix;
    this.sql = new Sql(schema, tablePrefix);
    this.reads = new Reads(sql, b.fullTextCandidates);
    this.experience = new ExperienceSql(schema, tablePrefix);
    this.usage = new UsageSql(schema, tablePrefix);
    this.insertVersions = new ManyRows(sql.insertVersions, Sql.INSERT_VERSIONS_TYPES);
    this.insertEvents = new ManyRows(sql.insertEvents, Sql.INSERT_EVENTS_TYPES);
    this.insertKeys = new ManyRows(sql.insertManyKeys, Sql.INSERT_KEYS_TYPES);
    this.afterClose = b.afterClose;
    if (b.jdbcUrl != null) {
      this.ownedPool = pool(b.jdbcUrl, b.maximumPoolSize);
      this.dataSource = ownedPool;
    } else {
      this.ownedPool = null;
      this.dataSource = Objects.requireNonNull(b.dataSource, "dataSource");
    }
    try {
      Migrations migrations = new Migrations(schema, tablePrefix);
      if (b.runMigrations) {
        read("applying migrations", c -> {
          migrations.migrate(c);
          return null;
        });
      } else {
        read("checking the schema", c -> {
          migrations.verify(c);
          return null;
        });
      }
      TextReanalysis text = new TextReanalysis(schema, tablePrefix);
      read("bringing the full-text terms up to date", c -> {
        text.bringUpToDate(c);
        return null;
      });
      // the refresh cadence grows with the table, whichever process wrote it
      analyzedVersions = read("reading the size of the versions table", c -> {
        try (PreparedStatement ps = c.prepareStatement(sql.versionsEstimate)) {
          ps.setString(1, sql.versionsTable);
          try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Math.max(0L, rs.getLong(1)) : 0L;
          }
        }
      });
    } catch (RuntimeException e) {
      if (ownedPool != null) {
        ownedPool.close();
      }
      throw e;
    }
  }

  /**
   * @return a builder with the defaults: table prefix {@value #DEFAULT_TABLE_PREFIX}, the search path's
   *     schema, migrations applied, a pool of 10; a {@code jdbcUrl} or a {@code dataSource} must be given
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The migration scripts this library applies, oldest first, with the schema and table prefix
   * resolved: for hosts that manage the schema themselves ({@link Builder#runMigrations(boolean)
   * runMigrations(false)}).
   *
   * @param schema the schema holding the tables, or null for the connection's search path
   * @param tablePrefix the table prefix, as {@link Builder#tablePrefix(String)} takes it
   * @return the SQL scripts, oldest first
   * @throws NullPointerException if {@code tablePrefix} is null
   * @throws InvalidInputException if the schema or the prefix is not a valid name
   */
  public static List<String> migrationScripts(@Nullable String schema, String tablePrefix) {
    return new Migrations(schema == null ? "" : checkSchema(schema), checkPrefix(tablePrefix)).scripts();
  }

  /** @return the schema version this library writes and reads: the latest migration's version */
  public static int schemaVersion() {
    return Migrations.LATEST;
  }

  /** @return the prefix of every table and index name of this store (may be empty) */
  public String tablePrefix() {
    return tablePrefix;
  }

  /** @return the schema the tables live in; empty when they are in the connection's search path */
  public String schema() {
    return schema;
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return EnumSet.of(StoreCapability.DURABLE, StoreCapability.MULTI_PROCESS, StoreCapability.FULL_TEXT_SEARCH,
        StoreCapability.VECTOR_STORAGE, StoreCapability.SOURCES, StoreCapability.RETRIEVAL_KEYS,
        StoreCapability.REVIEW, StoreCapability.WORK_CLAIMS,
        StoreCapability.REPLACE_SCOPE, StoreCapability.MODEL_USAGE);
  }

  // ---------------------------------------------------------------------------------------------
  // transactions

  /**
   * Runs {@code work} on one connection holding the row lock of the scope's head. Called from inside a
   * transaction on the same thread it runs as a savepoint on that transaction's connection (so it never
   * waits for a lock its own outer transaction holds) and locks its scope's head there.
   *
   * @param <T> what the work returns
   * @param scope the scope the transaction may write
   * @param work the work to run
   * @return what the work returned
   * @throws NullPointerException if {@code scope} or {@code work} is null
   * @throws StoreException when the database fails
   */
  @Override
  public <T> T inTransaction(String scope, StoreWork<T> work) {
    return inTransaction(scope, List.of(), work);
  }

  /**
   * {@link #inTransaction(String, StoreWork)} for work that looks up the active holders of
   * {@code contentHashes} first, as a write's dedupe check does. A nested transaction ignores the hint.
   *
   * <p>When this store knows the scope's head from its own last transaction there (and runs no other
   * transaction on it), the transaction expects that head and no active holder of the hashes, and sends
   * nothing until the work is done: the head lock, the check of both expectations under it (the
   * {@code lock_expected_head} function of schema 11, which reads with a snapshot taken once the lock is
   * granted), the work's writes and the {@code COMMIT} then travel in one round trip. When the check
   * fails (another process wrote the scope, or the content is already held), the server runs none of
   * the writes, the transaction rolls back and runs again the ordinary way, its work included. Work
   * that reads anything beyond the head and those hashes, or throws, makes the transaction lock the
   * head and check first, so whatever it does or throws is based on what the lock shows.
   *
   * <p>Otherwise the holders are read in the round trip that locks the head (a second statement of that
   * round trip, so it sees every commit made before the lock was granted) and {@code findActiveByHash(es)}
   * is answered for them from it until the transaction writes.
   *
   * @param <T> what the work returns
   * @param scope the scope the transaction may write
   * @param contentHashes the content hashes the work will look up first
   * @param work the work to run
   * @return what the work returned
   * @throws NullPointerException if an argument is null
   * @throws StoreException when the database fails
   */
  @Override
  public <T> T inTransaction(String scope, Collection<String> contentHashes, StoreWork<T> work) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(contentHashes, "contentHashes");
    Objects.requireNonNull(work, "work");
    Tx outer = current.get();
    if (outer != null) {
      return nested(outer, scope, work);
    }
    Long expected = heads.begin(scope);
    try {
      if (expected != null && !contentHashes.isEmpty()) {
        try {
          T result = attempt(scope, contentHashes, expected, work);
          heads.held(scope);
          return result;
        } catch (Unexpected e) {
          heads.failed(scope);
          LOG.debug("{}: {} was not at the expected head {}; running the transaction again", this, scope, expected);
        }
      }
      return attempt(scope, contentHashes, null, work);
    } finally {
      heads.end(scope);
    }
  }

  /**
   * One run of a transaction: with {@code expected} null it locks the head first; otherwise it expects
   * that head and no holder of {@code contentHashes}, and throws {@link Unexpected} (rolled back) when
   * the lock shows otherwise.
   */
  private <T> T attempt(String scope, Collection<String> contentHashes, @Nullable Long expected, StoreWork<T> work) {
    Connection c = connect("a transaction on " + scope);
    Tx tx = null;
    try {
      c.setAutoCommit(false);
      tx = new Tx(c, scope, 0);
      current.set(tx);
      if (expected == null) {
        tx.lockHead(contentHashes);
        heads.record(scope, tx.head);
      } else {
        tx.expect(expected, contentHashes);
      }
      T result;
      try {
        result = work.run(tx);
      } catch (RuntimeException | Error e) {
        // what the work threw counts only if the head and the hashes were as it was told
        tx.confirm();
        throw e;
      }
      tx.commit();
      heads.record(scope, tx.head);
      afterCommit(c, tx.insertedVersions);
      return result;
    } catch (SQLException e) {
      rollback(c, e);
      throw failure("the transaction on " + scope, e);
    } catch (RuntimeException | Error e) {
      rollback(c, e);
      throw e;
    } finally {
      current.remove();
      if (tx != null) {
        tx.closed = true;
      }
      release(c);
    }
  }

  /**
   * A transaction that expected its scope's head (and no holder of some content hashes) found
   * otherwise: rolled back, to be run again the ordinary way. Never reaches a caller.
   */
  private static final class Unexpected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unexpected() {
      super(null, null, false, false);
    }
  }

  private <T> T nested(Tx outer, String scope, StoreWork<T> work) {
    Tx tx = new Tx(outer.c, scope, outer.depth + 1);
    Savepoint savepoint;
    if (!scope.equals(outer.scope)) {
      heads.forget(scope);
    }
    try {
      outer.sendQueued();
      savepoint = outer.c.setSavepoint("engram_nested_" + tx.depth);
    } catch (SQLException e) {
      throw failure("opening a nested transaction on " + scope, e);
    }
    outer.holders = null;
    current.set(tx);
    try {
      tx.lockHead(List.of());
      T result = work.run(tx);
      tx.sendQueued();
      outer.c.releaseSavepoint(savepoint);
      if (tx.scope.equals(outer.scope)) {
        outer.head = tx.head;
      }
      outer.insertedVersions += tx.insertedVersions;
      if (tx.scope.equals(outer.scope)) {
        // what the outer transaction knows of its own versions holds unless the nested one touched others
        if (tx.touchedOthers) {
          outer.own.clear();
          outer.touchedOthers = true;
        }
        outer.own.putAll(tx.own);
      }
      return result;
    } catch (SQLException e) {
      undoNested(tx, savepoint, e);
      throw failure("the nested transaction on " + scope, e);
    } catch (RuntimeException | Error e) {
      undoNested(tx, savepoint, e);
      throw e;
    } finally {
      tx.closed = true;
      current.set(outer);
    }
  }

  /**
   * Refreshes the planner statistics of the tables that searches and reads plan over once enough
   * versions were committed (see {@link #ANALYZE_AFTER_VERSIONS}), on the connection of the transaction
   * that crossed the mark, after its commit. One thread refreshes at a time; a role not allowed to
   * analyze is logged once and left to autovacuum.
   */
  private void afterCommit(Connection c, int inserted) {
    if (inserted == 0 || analyzeRefused) {
      return;
    }
    long written = writtenSinceAnalyze.addAndGet(inserted);
    if (written < Math.max(ANALYZE_AFTER_VERSIONS, analyzedVersions / 5) || !analyzing.compareAndSet(false, true)) {
      return;
    }
    try {
      c.setAutoCommit(true);
      long started = System.nanoTime();
      try (java.sql.Statement st = c.createStatement()) {
        st.execute(sql.analyze);
      }
      writtenSinceAnalyze.addAndGet(-written);
      analyzedVersions += written;
      LOG.debug("{}: refreshed planner statistics after {} versions in {} ms", this, written,
          (System.nanoTime() - started) / 1_000_000);
    } catch (SQLException e) {
      analyzeRefused = "42501".equals(e.getSQLState());
      LOG.warn("{}: could not refresh planner statistics after {} versions ({}); searches may be planned on stale"
          + " row counts until autovacuum analyzes the tables", this, written, e.getMessage());
    } finally {
      analyzing.set(false);
    }
  }

  private static void undoNested(Tx tx, Savepoint savepoint, Throwable cause) {
    tx.discardQueued();
    try {
      tx.c.rollback(savepoint);
      tx.c.releaseSavepoint(savepoint);
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static void rollback(Connection c, Throwable cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /** Returns a connection to the pool with auto-commit restored; a broken one is simply closed. */
  private static void release(Connection c) {
    try {
      c.setAutoCommit(true);
    } catch (SQLException ignored) {
      // the connection is broken; closing it below lets the pool discard it
    }
    try {
      c.close();
    } catch (SQLException ignored) {
      // nothing left to release
    }
  }

  // ---------------------------------------------------------------------------------------------
  // work claims: the SPI's (of given scopes) and the store-wide ones, on the same rows and leases

  /**
   * {@inheritDoc}
   *
   * <p>On the topic rows ({@code FOR UPDATE SKIP LOCKED}), leases on the database clock; the same claims
   * as {@link #claimDirtyTopics(String, int, Duration)}'s, so the two never hand out one pair twice.
   */
  @Override
  public List<WorkClaim> claimDirtyTopics(String workerId, Collection<String> scopes, int limit, Duration lease) {
    return claim(WorkClaim.Kind.DIRTY_TOPIC, sql.claimDirtyTopicsIn, "claiming dirty topics", workerId, scopes, limit,
        lease);
  }

  /**
   * {@inheritDoc}
   *
   * <p>On the source-state rows, as {@link #claimPendingSources(String, int, Duration)} claims them.
   */
  @Override
  public List<WorkClaim> claimPendingSources(String workerId, Collection<String> scopes, int limit, Duration lease) {
    return claim(WorkClaim.Kind.PENDING_SOURCES, sql.claimPendingSourcesIn, "claiming scopes with pending sources",
        workerId, scopes, limit, lease);
  }

  /**
   * Runs one of the scope-confined claim statements (bound as scopes, limit, worker, token, lease seconds;
   * answering the scope, for topics the topic, then the lease end) and returns its claims by scope and topic.
   */
  private List<WorkClaim> claim(WorkClaim.Kind kind, String statement, String what, String workerId,
      Collection<String> scopes, int limit, Duration lease) {
    List<String> checked = WorkClaim.checkClaim(workerId, scopes, limit, lease);
    double seconds = leaseSeconds(lease);
    String token = UUID.randomUUID().toString();
    if (checked.isEmpty()) {
      return List.of();
    }
    boolean topics = kind == WorkClaim.Kind.DIRTY_TOPIC;
    return read(what, c -> {
      List<WorkClaim> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(statement)) {
        ps.setArray(1, Rows.textArray(c, checked));
        ps.setInt(2, limit);
        ps.setString(3, workerId);
        ps.setString(4, token);
        ps.setDouble(5, seconds);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new WorkClaim(kind, rs.getString(1), topics ? rs.getString(2) : null, workerId, token,
                rs.getObject(topics ? 3 : 2, OffsetDateTime.class).toInstant()));
          }
        }
      }
      out.sort(Comparator.comparing(WorkClaim::scope).thenComparing(w -> String.valueOf(w.topic())));
      return List.copyOf(out);
    });
  }

  @Override
  public boolean releaseClaim(WorkClaim claim) {
    Objects.requireNonNull(claim, "claim");
    return read("releasing a claim", c -> {
      if (claim.kind() == WorkClaim.Kind.DIRTY_TOPIC) {
        try (PreparedStatement ps = c.prepareStatement(sql.releaseClaim)) {
          ps.setString(1, claim.scope());
          ps.setString(2, claim.topic());
          ps.setString(3, claim.token());
          return ps.executeUpdate() > 0;
        }
      }
      try (PreparedStatement ps = c.prepareStatement(sql.releaseSourceClaim)) {
        ps.setString(1, claim.scope());
        ps.setString(2, claim.token());
        return ps.executeUpdate() > 0;
      }
    });
  }

  /**
   * Claims up to {@code limit} dirty (scope, topic) pairs for {@code workerId} for the length of
   * {@code lease}, ordered by scope then topic. Pairs claimed by others and not yet expired are
   * skipped, as are pairs another worker is claiming at this instant ({@code FOR UPDATE SKIP
   * LOCKED}), so concurrent workers in any number of processes get disjoint claims. Leases run on
   * the database clock. A claim ends when released, or when its lease passes (then any worker may
   * claim the pair again).
   *
   * @param workerId names the worker (1..256 non-blank characters)
   * @param limit the most pairs claimed (1..10,000)
   * @param lease how long the claims last (positive, at most 365 days)
   * @return the claims, ordered by scope then topic
   * @throws NullPointerException if {@code workerId} or {@code lease} is null
   * @throws InvalidInputException if an argument is out of range
   * @throws StoreException when the database fails
   */
  public List<TopicClaim> claimDirtyTopics(String workerId, int limit, Duration lease) {
    String worker = checkWorker(workerId);
    if (limit < 1 || limit > MAX_CLAIMS) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_CLAIMS + ", was " + limit);
    }
    double seconds = leaseSeconds(lease);
    String token = UUID.randomUUID().toString();
    return read("claiming dirty topics", c -> {
      List<TopicClaim> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(sql.claimDirtyTopics)) {
        ps.setInt(1, limit);
        ps.setString(2, worker);
        ps.setString(3, token);
        ps.setDouble(4, seconds);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new TopicClaim(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), worker, token,
                rs.getObject(5, OffsetDateTime.class).toInstant()));
          }
        }
      }
      out.sort(CLAIM_ORDER);
      return List.copyOf(out);
    });
  }

  /**
   * Extends a claim to {@code lease} from now. Empty when the claim was released or another worker
   * has claimed the pair since its lease passed.
   *
   * @param claim a claim this store handed out
   * @param lease the new length, from now (positive, at most 365 days)
   * @return the renewed claim, or empty when the claim has ended
   * @throws NullPointerException if an argument is null
   * @throws InvalidInputException if {@code lease} is out of range
   * @throws StoreException when the database fails
   */
  public Optional<TopicClaim> renewClaim(TopicClaim claim, Duration lease) {
    Objects.requireNonNull(claim, "claim");
    double seconds = leaseSeconds(lease);
    return read("renewing a claim", c -> {
      try (PreparedStatement ps = c.prepareStatement(sql.renewClaim)) {
        ps.setDouble(1, seconds);
        ps.setString(2, claim.scope());
        ps.setString(3, claim.topic());
        ps.setString(4, claim.token());
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            return Optional.<TopicClaim>empty();
          }
          Instant until = rs.getObject(1, OffsetDateTime.class).toInstant();
          return Optional.of(new TopicClaim(claim.scope(), claim.topic(), claim.lastWriteRevision(),
              claim.lastCuratedRevision(), claim.workerId(), claim.token(), until));
        }
      }
    });
  }

  /**
   * Ends a claim so the pair is claimable again at once (when still dirty). Returns false when the
   * claim had already ended: released, or taken over by another worker after its lease passed.
   *
   * @param claim a claim this store handed out
   * @return true when the claim was held and is now released
   * @throws NullPointerException if {@code claim} is null
   * @throws StoreException when the database fails
   */
  public boolean releaseClaim(TopicClaim claim) {
    Objects.requireNonNull(claim, "claim");
    return read("releasing a claim", c -> {
      try (PreparedStatement ps = c.prepareStatement(sql.releaseClaim)) {
        ps.setString(1, claim.scope());
        ps.setString(2, claim.topic());
        ps.setString(3, claim.token());
        return ps.executeUpdate() > 0;
      }
    });
  }

  /**
   * Claims up to {@code limit} scopes with captured sources after their cursor that no other worker
   * holds, for {@code lease}, with {@code FOR UPDATE SKIP LOCKED}: concurrent workers get disjoint
   * scopes and never wait for each other. A worker then runs {@code Engram.flush} with grants on each
   * claimed scope and releases the claim.
   *
   * @param workerId names the worker (1..256 characters)
   * @param limit the most scopes claimed (1..10,000)
   * @param lease how long the claims last (at most 365 days)
   * @return the claims, ordered by scope
   * @throws NullPointerException if {@code workerId} or {@code lease} is null
   * @throws IllegalArgumentException if {@code limit} is out of range
   * @throws InvalidInputException if {@code workerId} or {@code lease} is out of range
   * @throws StoreException when the database fails
   */
  public List<SourceClaim> claimPendingSources(String workerId, int limit, Duration lease) {
    String worker = checkWorker(workerId);
    if (limit < 1 || limit > MAX_CLAIMS) {
      throw new IllegalArgumentException("limit must be between 1 and " + MAX_CLAIMS + ", was " + limit);
    }
    double seconds = leaseSeconds(lease);
    String token = UUID.randomUUID().toString();
    return read("claiming scopes with pending sources", c -> {
      List<SourceClaim> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(sql.claimPendingSources)) {
        ps.setInt(1, limit);
        ps.setString(2, worker);
        ps.setString(3, token);
        ps.setDouble(4, seconds);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new SourceClaim(rs.getString(1), rs.getLong(2), rs.getLong(3), worker, token,
                rs.getObject(4, OffsetDateTime.class).toInstant()));
          }
        }
      }
      out.sort(Comparator.comparing(SourceClaim::scope));
      return List.copyOf(out);
    });
  }

  /**
   * Releases a source claim. False when it was already released or another worker claimed the scope
   * after the lease passed.
   *
   * @param claim a claim this store handed out
   * @return true when the claim was held and is now released
   * @throws NullPointerException if {@code claim} is null
   * @throws StoreException when the database fails
   */
  public boolean releaseSourceClaim(SourceClaim claim) {
    Objects.requireNonNull(claim, "claim");
    return read("releasing a source claim", c -> {
      try (PreparedStatement ps = c.prepareStatement(sql.releaseSourceClaim)) {
        ps.setString(1, claim.scope());
        ps.setString(2, claim.token());
        return ps.executeUpdate() > 0;
      }
    });
  }

  private static String checkWorker(String workerId) {
    Objects.requireNonNull(workerId, "workerId");
    if (workerId.isBlank() || workerId.length() > MAX_WORKER_ID_CHARS) {
      throw new InvalidInputException("workerId", "must be 1.." + MAX_WORKER_ID_CHARS + " non-blank characters");
    }
    return workerId;
  }

  private static double leaseSeconds(Duration lease) {
    Objects.requireNonNull(lease, "lease");
    if (lease.isNegative() || lease.isZero()) {
      throw new InvalidInputException("lease", "must be positive, was " + lease);
    }
    if (lease.compareTo(Duration.ofDays(365)) > 0) {
      throw new InvalidInputException("lease", "must be at most 365 days, was " + lease);
    }
    return lease.toNanos() / 1e9;
  }

  @Override
  <T> T query(String what, SqlWork<T> work) {
    return read(what, work);
  }

  @Override
  public List<String> vectorProfiles() {
    return read("listing the embedding profiles of stored vectors", c -> {
      List<String> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(sql.vectorProfiles); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    });
  }

  @Override
  Reads reads() {
    return reads;
  }

  @Override
  ExperienceSql experience() {
    return experience;
  }

  @Override
  UsageSql usage() {
    return usage;
  }


  // ---------------------------------------------------------------------------------------------
  // lifecycle and plumbing

  /** Closes the pool the store created from a JDBC URL; a {@link DataSource} passed in stays open. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      if (ownedPool != null) {
        ownedPool.close();
      }
      if (afterClose != null) {
        afterClose.run();
      }
    }
  }

  @Override
  public String toString() {
    return "PostgresMemoryStore[" + (schema.isEmpty() ? "" : schema + ".") + tablePrefix + "*]";
  }

  private <T> T read(String what, SqlWork<T> work) {
    Connection c = connect(what);
    try {
      return work.run(c);
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      release(c);
    }
  }

  private Connection connect(String what) {
    if (closed.get()) {
      throw StoreException.closed(this + " is closed");
    }
    try {
      return dataSource.getConnection();
    } catch (SQLException e) {
      throw failure("connecting for " + what, e);
    }
  }

  /**
   * A missing table or schema means the database is not (yet) an Engram database; a duplicate key
   * means the caller reused an id (an {@link IllegalStateException}, as in every store); anything else
   * is unavailability.
   */
  static RuntimeException failure(String what, SQLException e) {
    String state = e.getSQLState();
    String message = "PostgreSQL failed " + what + ": " + e.getMessage();
    if ("23505".equals(state)) {
      return new IllegalStateException(message, e);
    }
    if ("42P01".equals(state) || "42703".equals(state) || "3F000".equals(state)) {
      return new StoreException(ErrorCode.STORE_INCOMPATIBLE,
          message + " (the Engram tables are missing or differ; run the migrations)", e);
    }
    return StoreException.unavailable(message, e);
  }

  private static HikariDataSource pool(String jdbcUrl, int maximumPoolSize) {
    try {
      DriverManager.getDriver(jdbcUrl);
    } catch (SQLException e) {
      throw StoreException.unavailable("no PostgreSQL JDBC driver on the class path: the application adds "
          + "org.postgresql:postgresql (42.x) next to memory-store-postgres", e);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setPoolName("engram-postgres");
    config.setMaximumPoolSize(maximumPoolSize);
    config.setMinimumIdle(Math.min(2, maximumPoolSize));
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw StoreException.unavailable("cannot open a PostgreSQL pool on " + redact(jdbcUrl) + ": " + e.getMessage(), e);
    }
  }

  private static String redact(String jdbcUrl) {
    return jdbcUrl.replaceAll("(?i)(password=)[^&]*", "$1***");
  }

  private static String checkPrefix(String prefix) {
    Objects.requireNonNull(prefix, "tablePrefix");
    if (!prefix.isEmpty() && (prefix.length() > MAX_PREFIX_CHARS || !IDENTIFIER.matcher(prefix).matches())) {
      throw new InvalidInputException("tablePrefix", "'" + prefix + "' must be empty or 1.." + MAX_PREFIX_CHARS
          + " characters of a-z, 0-9 and _, not starting with a digit");
    }
    return prefix;
  }

  private static String checkSchema(String schema) {
    Objects.requireNonNull(schema, "schema");
    if (schema.length() > MAX_SCHEMA_CHARS || !IDENTIFIER.matcher(schema).matches()) {
      throw new InvalidInputException("schema", "'" + schema + "' must be 1.." + MAX_SCHEMA_CHARS
          + " characters of a-z, 0-9 and _, not starting with a digit");
    }
    return schema;
  }

  // ---------------------------------------------------------------------------------------------
  // the transaction

  /** Binds the parameters of one statement from {@code first} on and returns the next free index. */
  @FunctionalInterface
  private interface Binder {
    int bind(PreparedStatement ps, int first) throws SQLException;
  }

  /**
   * A write whose outcome the caller does not need at once. A kind of write that has a many-row form
   * carries it and its row's values, one per array of that form.
   */
  private record Deferred(String sql, Binder binder, @Nullable ManyRows many, Object @Nullable [] row) {
    Deferred(String sql, Binder binder) {
      this(sql, binder, null, null);
    }
  }

  /** Content hashes looked up with a transaction's head lock, and the active version holding each one found. */
  private record Holders(Set<String> hashes, Map<String, MemoryEntry> found) {}

  /** The statement that writes many queued rows of one kind at once, from one array per column of these types. */
  private record ManyRows(String sql, List<String> types) {}

  /**
   * One transaction: a connection with auto-commit off that holds the row lock of its scope's head.
   * Writes that return nothing (events, revisions, topic marks) are queued and sent together, in
   * order, in one round trip before the next statement or the commit.
   */
  private final class Tx extends ConnectionReads implements StoreTransaction {
    private final Connection c;
    private final String scope;
    /** 0 for a transaction, 1 and more for savepoints nested in it. */
    private final int depth;
    private final List<Deferred> deferred = new ArrayList<>();
    /**
     * Queued retrieval keys, sent after the other queued writes (they take the status of versions those
     * insert), in their many-row form when there are several.
     */
    private final List<Deferred> queuedKeys = new ArrayList<>();
    /**
     * The versions this transaction inserted, each with the retrieval keys it stored for it (empty for
     * none): such a version exists in this scope and has exactly these keys, so {@link #putKeys} and
     * {@link #keysOf} on it need no round trip. Cleared by an erasure.
     */
    private final Map<String, List<String>> own = new java.util.HashMap<>();
    /** This transaction stored keys of versions it did not insert, or erased: an outer one forgets its {@link #own}. */
    private boolean touchedOthers;
    /** The statements the queued writes make, and the length of the run of one kind they end with. */
    private int queuedStatements;
    private int trailingRun;
    /** The active holders of some content hashes as read with the head lock; null once anything was written. */
    private @Nullable Holders holders;
    private long head;
    /** The head expected while nothing was sent (see {@link #expect}); null once locked. */
    private @Nullable Long expectedHead;
    private Set<String> expectedHashes = Set.of();
    /** The lock showed another head or a holder than expected: nothing of this run may commit. */
    private boolean unexpected;
    /** Versions this transaction (and the nested ones that committed into it) inserted. */
    int insertedVersions;
    boolean closed;

    Tx(Connection c, String scope, int depth) {
      this.c = c;
      this.scope = scope;
      this.depth = depth;
    }

    /** Refuses a write for another scope than the one this transaction is bound to. */
    private void requireScope(String written, String what) {
      checkOpen();
      if (!written.equals(scope)) {
        throw new IllegalStateException(what + " of scope " + written + " in a transaction on " + scope);
      }
    }

    /** Drops the queued writes (of a nested transaction being undone). */
    void discardQueued() {
      deferred.clear();
      queuedKeys.clear();
      queuedStatements = 0;
      trailingRun = 0;
    }

    /** Sends the queued writes now (before a savepoint opens or closes). */
    void sendQueued() throws SQLException {
      checkOpen();
      confirm();
      flush();
    }

    /**
     * Takes {@code expected} as the scope's head and no active holder of {@code contentHashes}, without
     * a round trip; the head is locked and both are checked before anything else is sent.
     */
    void expect(long expected, Collection<String> contentHashes) {
      expectedHead = expected;
      expectedHashes = new LinkedHashSet<>(contentHashes);
      head = expected;
      holders = new Holders(expectedHashes, Map.of());
    }

    /**
     * Locks the head now if it was only expected so far, and checks what was expected; throws
     * {@link Unexpected} when it differs (then nothing of this run may commit).
     */
    void confirm() throws SQLException {
      if (unexpected) {
        throw new Unexpected();
      }
      Long expected = expectedHead;
      if (expected == null) {
        return;
      }
      expectedHead = null;
      Holders answered = holders;
      long local = head;
      lockHead(expectedHashes);
      heads.record(scope, head);
      Holders read = holders;
      if (head != expected || read == null || !read.found().isEmpty()) {
        unexpected = true;
        throw new Unexpected();
      }
      // the work already went on from the expected head (and may have written since)
      head = local;
      holders = answered;
    }

    /**
     * Locks the scope's head row, creating it at 0 for a new scope (a row this transaction inserted
     * is as good as locked: concurrent inserters wait for it on the primary key).
     */
    void lockHead(Collection<String> contentHashes) throws SQLException {
      Optional<Long> locked = contentHashes.isEmpty() ? selectHeadForUpdate() : selectHeadAndHolders(contentHashes);
      if (locked.isEmpty()) {
        // the holders were read without the lock: a writer that created the head meanwhile may have added some
        holders = null;
        try (PreparedStatement ps = c.prepareStatement(sql.createHead)) {
          ps.setString(1, scope);
          locked = ps.executeUpdate() == 1 ? Optional.of(0L) : selectHeadForUpdate();
        }
      }
      head = locked.orElseThrow(() -> new IllegalStateException("the head row of " + scope + " vanished"));
    }

    /**
     * Locks the head and reads the active holders of {@code contentHashes} in one round trip: two
     * statements, the second run (with its own snapshot) once the first holds the lock.
     */
    private Optional<Long> selectHeadAndHolders(Collection<String> contentHashes) throws SQLException {
      Set<String> hashes = new LinkedHashSet<>(contentHashes);
      // one hash by equality: a plan made once per connection, where the array form is planned anew for
      // each array (its generic plan is estimated for more than one element)
      boolean one = hashes.size() == 1;
      try (PreparedStatement ps = c.prepareStatement(sql.lockHead + ";\n"
          + (one ? sql.findActiveByHash : sql.findActiveByHashes))) {
        ps.setString(1, scope);
        ps.setString(2, scope);
        if (one) {
          ps.setString(3, hashes.iterator().next());
        } else {
          ps.setArray(3, Rows.textArray(c, hashes));
        }
        ps.execute();
        Optional<Long> locked;
        try (ResultSet rs = ps.getResultSet()) {
          locked = rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
        }
        if (!ps.getMoreResults()) {
          throw new IllegalStateException("the content-hash lookup returned no result");
        }
        Map<String, MemoryEntry> found = new java.util.HashMap<>();
        try (ResultSet rs = ps.getResultSet()) {
          while (rs.next()) {
            MemoryEntry e = Rows.entry(rs);
            found.put(e.contentHash(), e);
          }
        }
        holders = new Holders(hashes, found);
        return locked;
      }
    }

    private Optional<Long> selectHeadForUpdate() throws SQLException {
      try (PreparedStatement ps = c.prepareStatement(sql.lockHead)) {
        ps.setString(1, scope);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
        }
      }
    }

    private void checkOpen() {
      if (closed) {
        throw new IllegalStateException("transaction on " + scope + " is closed");
      }
    }

    /** {@link #run} for a write: what was read with the head lock may no longer hold. */
    private <T> T write(String what, SqlWork<T> work) {
      holders = null;
      return run(what, work);
    }

    private <T> T run(String what, SqlWork<T> work) {
      checkOpen();
      try {
        confirm();
        flush();
        return work.run(c);
      } catch (SQLException e) {
        throw failure(what + " in the transaction on " + scope, e);
      }
    }

    private void defer(String statement, Binder binder) {
      defer(new Deferred(statement, binder));
    }

    private void defer(Deferred write) {
      checkOpen();
      holders = null;
      Deferred last = deferred.isEmpty() ? null : deferred.get(deferred.size() - 1);
      if (write.many() != null && last != null && last.sql().equals(write.sql())) {
        trailingRun++;
      } else {
        trailingRun = 1;
        queuedStatements++;
      }
      deferred.add(write);
      if (queuedStatements >= MAX_DEFERRED || trailingRun >= MAX_MANY_ROWS) {
        run("writing queued statements", conn -> null);
      }
    }

    /** Sends the queued writes as one multi-statement round trip. */
    private void flush() throws SQLException {
      flush(false);
    }

    /**
     * Sends the queued writes and commits. With writes queued, the {@code COMMIT} travels in the same
     * round trip (the driver then has nothing left to send); a failing write stops the batch before it.
     */
    void commit() throws SQLException {
      if (unexpected) {
        throw new Unexpected();
      }
      Long expected = expectedHead;
      if (expected != null) {
        // the lock and the check of what was expected go first, in the same round trip as the writes
        expectedHead = null;
        Set<String> hashes = expectedHashes;
        deferred.add(0, new Deferred(sql.lockExpectedHead, (ps, i) -> {
          ps.setString(i, scope);
          ps.setLong(i + 1, expected);
          ps.setArray(i + 2, Rows.textArray(ps.getConnection(), hashes));
          return i + 3;
        }));
        try {
          flush(true);
        } catch (SQLException e) {
          if (UNEXPECTED_HEAD.equals(e.getSQLState())) {
            unexpected = true;
            heads.forget(scope);
            throw new Unexpected();
          }
          throw e;
        }
      } else {
        flush(true);
      }
      closed = true;
      c.commit();
    }

    private void flush(boolean thenCommit) throws SQLException {
      if (deferred.isEmpty() && queuedKeys.isEmpty()) {
        return;
      }
      try {
        // Runs of one statement (a batch's versions, its events) go as one JDBC batch: parsed and
        // planned once, sent pipelined. Everything else goes joined into one multi-statement round
        // trip, the COMMIT with the last of them.
        List<Deferred> joined = new ArrayList<>();
        int i = 0;
        while (i < deferred.size()) {
          int end = i + 1;
          while (end < deferred.size() && deferred.get(end).sql().equals(deferred.get(i).sql())) {
            end++;
          }
          ManyRows many = deferred.get(i).many();
          if (many != null && end - i >= MIN_MANY_ROWS) {
            joined.add(manyRows(many, deferred.subList(i, end)));
          } else if (end - i >= MIN_BATCH_RUN) {
            sendJoined(joined, false);
            joined.clear();
            try (PreparedStatement ps = c.prepareStatement(deferred.get(i).sql())) {
              for (int k = i; k < end; k++) {
                deferred.get(k).binder().bind(ps, 1);
                ps.addBatch();
              }
              ps.executeBatch();
            }
          } else {
            joined.addAll(deferred.subList(i, end));
          }
          i = end;
        }
        // the keys last, after the versions they belong to
        if (queuedKeys.size() >= MIN_MANY_ROWS) {
          joined.add(manyRows(insertKeys, queuedKeys));
        } else {
          joined.addAll(queuedKeys);
        }
        // when the last statements went as a batch, the caller's commit() sends the COMMIT itself
        sendJoined(joined, thenCommit);
      } finally {
        deferred.clear();
        queuedKeys.clear();
        queuedStatements = 0;
        trailingRun = 0;
      }
    }

    /** One statement in {@code many}'s form writing the rows of {@code run}, bound as one array per column. */
    private Deferred manyRows(ManyRows many, List<Deferred> run) {
      List<Object[]> rows = new ArrayList<>(run.size());
      for (Deferred d : run) {
        rows.add(Objects.requireNonNull(d.row(), "row"));
      }
      return new Deferred(many.sql(), (ps, first) -> {
        // as Java arrays, which the driver sends in binary: no array literal to build, escape and parse
        int n = rows.size();
        for (int k = 0; k < many.types().size(); k++) {
          Object column;
          switch (many.types().get(k)) {
            case "int4" -> {
              int[] values = new int[n];
              for (int r = 0; r < n; r++) {
                values[r] = (Integer) rows.get(r)[k];
              }
              column = values;
            }
            case "int8" -> {
              long[] values = new long[n];
              for (int r = 0; r < n; r++) {
                values[r] = (Long) rows.get(r)[k];
              }
              column = values;
            }
            default -> {
              String[] values = new String[n];
              for (int r = 0; r < n; r++) {
                values[r] = (String) rows.get(r)[k];
              }
              column = values;
            }
          }
          ps.setObject(first + k, column);
        }
        return first + many.types().size();
      });
    }

    /** Sends {@code statements} as one multi-statement round trip; false when there was nothing to send. */
    private boolean sendJoined(List<Deferred> statements, boolean thenCommit) throws SQLException {
      if (statements.isEmpty()) {
        return false;
      }
      StringBuilder joined = new StringBuilder();
      for (Deferred d : statements) {
        joined.append(joined.length() == 0 ? "" : ";\n").append(d.sql());
      }
      if (thenCommit) {
        joined.append(";\nCOMMIT");
      }
      try (PreparedStatement ps = c.prepareStatement(joined.toString())) {
        int next = 1;
        for (Deferred d : statements) {
          next = d.binder().bind(ps, next);
        }
        ps.execute();
      }
      return true;
    }

    @Override
    public String scope() {
      return scope;
    }

    @Override
    public Optional<MemoryEntry> findActiveByHash(String s, String contentHash) {
      Holders known = holders;
      if (known != null && s.equals(scope) && known.hashes().contains(contentHash)) {
        checkOpen();
        return Optional.ofNullable(known.found().get(contentHash));
      }
      return super.findActiveByHash(s, contentHash);
    }

    @Override
    public Map<String, MemoryEntry> findActiveByHashes(String s, Collection<String> contentHashes) {
      Holders known = holders;
      if (known != null && s.equals(scope) && known.hashes().containsAll(contentHashes)) {
        checkOpen();
        Map<String, MemoryEntry> out = new java.util.HashMap<>();
        for (String h : contentHashes) {
          MemoryEntry e = known.found().get(h);
          if (e != null) {
            out.put(h, e);
          }
        }
        return out;
      }
      return super.findActiveByHashes(s, contentHashes);
    }

    @Override
    public void insertVersion(MemoryEntry v) {
      Objects.requireNonNull(v, "version");
      requireScope(v.scope(), "version " + v.versionId());
      insertedVersions++;
      own.put(v.versionId(), List.of());
      TextAnalysis.Fields terms = TextAnalysis.fields(v);
      String glossaryWords = SearchText.vector(terms.glossary());
      String contentWords = SearchText.vector(terms.content());
      String topicWords = SearchText.vector(terms.topics());
      String disclosureWords = SearchText.vector(terms.disclosure());
      Object[] row = {v.versionId(), v.entryId(), v.version(), v.previousVersionId(), v.scope(), v.content(),
          Rows.textArrayLiteral(v.topics()), v.type().wireName(), v.priority(), v.disclosure(),
          Rows.textArrayLiteral(v.glossary()), v.path(), v.source(), Rows.textArrayLiteral(v.evidence()),
          v.contentHash(), v.status().name(), v.supersededBy(), v.createdAt().toString(), v.updatedAt().toString(),
          v.createdInRevision(), v.occurredAt() == null ? null : v.occurredAt().toString(), glossaryWords,
          contentWords, topicWords, disclosureWords};
      defer(new Deferred(sql.insertVersion, (ps, first) -> {
        Connection conn = ps.getConnection();
        int i = first;
        ps.setString(i++, v.versionId());
        ps.setString(i++, v.entryId());
        ps.setInt(i++, v.version());
        ps.setString(i++, v.previousVersionId());
        ps.setString(i++, v.scope());
        ps.setString(i++, v.content());
        ps.setArray(i++, Rows.textArray(conn, v.topics()));
        ps.setString(i++, v.type().wireName());
        ps.setInt(i++, v.priority());
        ps.setString(i++, v.disclosure());
        ps.setArray(i++, Rows.textArray(conn, v.glossary()));
        ps.setString(i++, v.path());
        ps.setString(i++, v.source());
        ps.setArray(i++, Rows.textArray(conn, v.evidence()));
        ps.setString(i++, v.contentHash());
        ps.setString(i++, v.status().name());
        ps.setString(i++, v.supersededBy());
        ps.setString(i++, v.createdAt().toString());
        ps.setString(i++, v.updatedAt().toString());
        ps.setLong(i++, v.createdInRevision());
        ps.setString(i++, v.occurredAt() == null ? null : v.occurredAt().toString());
        ps.setString(i++, glossaryWords);
        ps.setString(i++, contentWords);
        ps.setString(i++, topicWords);
        ps.setString(i++, disclosureWords);
        return i;
      }, insertVersions, row));
    }

    @Override
    public void updateStatus(String versionId, EntryStatus status, @Nullable String supersededBy, Instant at) {
      long updated = write("updating version " + versionId, conn -> {
        try (PreparedStatement ps = conn.prepareStatement(sql.updateStatus)) {
          ps.setString(1, status.name());
          ps.setString(2, supersededBy);
          ps.setString(3, at.toString());
          ps.setString(4, versionId);
          ps.setString(5, scope);
          ps.setBoolean(6, status == EntryStatus.ACTIVE);
          long n;
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            n = rs.getLong(1);
          }
          if (n == 0) {
            Optional<MemoryEntry> other = reads.version(conn, versionId);
            if (other.isPresent()) {
              requireScope(other.get().scope(), "status change of version " + versionId);
            }
          }
          return n;
        }
      });
      if (updated == 0) {
        throw new IllegalStateException("version " + versionId + " does not exist");
      }
    }

    @Override
    public void appendEvent(MemoryEvent e) {
      Objects.requireNonNull(e, "event");
      requireScope(e.scope(), "event " + e.eventId());
      String body = EntryJson.writeEvent(e);
      defer(new Deferred(sql.insertEvent, (ps, i) -> {
        ps.setString(i, e.eventId());
        ps.setString(i + 1, e.entryId());
        ps.setString(i + 2, e.scope());
        ps.setLong(i + 3, e.revision());
        ps.setString(i + 4, body);
        return i + 5;
      }, insertEvents, new Object[] {e.eventId(), e.entryId(), e.scope(), e.revision(), body}));
    }

    @Override
    public void appendRevision(Revision r) {
      Objects.requireNonNull(r, "revision");
      checkOpen();
      if (!r.scope().equals(scope)) {
        throw new IllegalStateException("revision for " + r.scope() + " in a transaction on " + scope);
      }
      if (r.revision() != head + 1) {
        throw new IllegalStateException("revision " + r.revision() + " does not follow head " + head + " of " + scope);
      }
      String changes = EntryJson.writeChanges(r.changes());
      defer(sql.appendRevision, (ps, i) -> {
        ps.setString(i, scope);
        ps.setLong(i + 1, r.revision());
        ps.setString(i + 2, changes);
        ps.setString(i + 3, r.at().toString());
        ps.setLong(i + 4, r.revision());
        ps.setString(i + 5, scope);
        return i + 6;
      });
      head = r.revision();
    }

    @Override
    public void markTopicsWritten(String topicScope, Collection<String> topics, long revision, Instant at) {
      requireScope(topicScope, "topic rows");
      Set<String> distinct = new LinkedHashSet<>(topics);
      if (distinct.isEmpty()) {
        checkOpen();
        return;
      }
      defer(sql.markTopicsWritten, (ps, i) -> {
        ps.setString(i, topicScope);
        ps.setLong(i + 1, revision);
        ps.setString(i + 2, at.toString());
        ps.setArray(i + 3, Rows.textArray(ps.getConnection(), distinct));
        return i + 4;
      });
    }

    @Override
    public void markTopicCurated(String topicScope, String topic, long revision, @Nullable String blurb) {
      requireScope(topicScope, "topic row " + topic);
      defer(sql.markTopicCurated, (ps, i) -> {
        ps.setString(i, topicScope);
        ps.setString(i + 1, topic);
        ps.setLong(i + 2, revision);
        ps.setString(i + 3, blurb);
        return i + 4;
      });
    }

    @Override
    public int eraseEntry(String entryId) {
      forgetOwn();
      return write("erasing entry " + entryId, conn -> {
        Optional<MemoryEntry> current = reads.currentVersion(conn, entryId);
        if (current.isEmpty()) {
          return 0;
        }
        requireScope(current.get().scope(), "erasure of entry " + entryId);
        String entryScope = null;
        Set<String> topics = new LinkedHashSet<>();
        int removed = 0;
        try (PreparedStatement ps = conn.prepareStatement(sql.eraseEntry)) {
          ps.setString(1, entryId);
          ps.setString(2, entryId);
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              if (entryScope == null) {
                entryScope = rs.getString(2);
              }
              topics.addAll(Rows.strings(rs.getArray(3)));
              removed++;
            }
          }
        }
        if (entryScope != null && !topics.isEmpty()) {
          try (PreparedStatement ps = conn.prepareStatement(sql.dropUncarriedTopics)) {
            ps.setString(1, entryScope);
            ps.setArray(2, Rows.textArray(conn, topics));
            ps.executeUpdate();
          }
        }
        return removed;
      });
    }

    /** {@link #eraseScopeContent}, then the revision log; the head row stays (this transaction holds its lock) at 0. */
    @Override
    public int eraseScope() {
      int removed = eraseScopeContent();
      write("erasing the revision log of " + scope, conn -> {
        try (PreparedStatement ps = conn.prepareStatement(sql.eraseScopeRevisions)) {
          ps.setString(1, scope);
          ps.executeUpdate();
        }
        try (PreparedStatement ps = conn.prepareStatement(sql.resetHead)) {
          ps.setString(1, scope);
          ps.executeUpdate();
        }
        return null;
      });
      head = 0;
      return removed;
    }

    @Override
    public int eraseScopeContent() {
      forgetOwn();
      return write("erasing the content of " + scope, conn -> {
        int removed;
        try (PreparedStatement ps = conn.prepareStatement(sql.eraseScopeEntries)) {
          ps.setString(1, scope);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            removed = rs.getInt(1);
          }
        }
        for (String statement : List.of(sql.eraseScopeTopics, sql.eraseScopeSources, sql.eraseScopeSourceState)) {
          try (PreparedStatement ps = conn.prepareStatement(statement)) {
            ps.setString(1, scope);
            ps.executeUpdate();
          }
        }
        experience.eraseScope(conn, scope);
        usage.eraseScope(conn, scope);
        return removed;
      });
    }

    /** After an erasure this transaction no longer knows which of its versions exist. */
    private void forgetOwn() {
      checkOpen();
      own.clear();
      touchedOthers = true;
    }

    // ---- retrieval keys

    /**
     * Queues the keys of a version. For a version this transaction inserted the checks are answered
     * from what it wrote, so the keys travel with the version's own writes; for another one, one read
     * (its scope and whether it has keys) comes first.
     */
    @Override
    public void putKeys(String versionId, List<String> keys) {
      Objects.requireNonNull(versionId, "versionId");
      Objects.requireNonNull(keys, "keys");
      checkOpen();
      List<String> known = own.get(versionId);
      if (known == null) {
        touchedOthers = true;
        run("checking version " + versionId + " for retrieval keys", conn -> {
          try (PreparedStatement ps = conn.prepareStatement(sql.keyOwner)) {
            ps.setString(1, versionId);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new IllegalStateException("version " + versionId + " does not exist");
              }
              requireScope(rs.getString(1), "retrieval keys of version " + versionId);
              if (rs.getBoolean(2)) {
                throw new IllegalStateException("version " + versionId + " already has retrieval keys");
              }
            }
          }
          return null;
        });
      } else if (!known.isEmpty()) {
        throw new IllegalStateException("version " + versionId + " already has retrieval keys");
      }
      for (String k : keys) {
        if (k == null || k.isBlank()) {
          throw new IllegalStateException("a retrieval key of version " + versionId + " is blank");
        }
      }
      if (keys.isEmpty()) {
        return;
      }
      List<String> stored = List.copyOf(keys);
      if (known != null) {
        own.put(versionId, stored);
      }
      String document = SearchText.keyDocument(stored);
      queuedKeys.add(new Deferred(sql.insertKeys, (ps, i) -> {
        ps.setArray(i, Rows.textArray(ps.getConnection(), stored));
        ps.setString(i + 1, document);
        ps.setString(i + 2, versionId);
        ps.setString(i + 3, scope);
        return i + 4;
      }, insertKeys, new Object[] {versionId, scope, Rows.textArrayLiteral(stored), document}));
      if (queuedKeys.size() >= MAX_MANY_ROWS) {
        run("writing queued statements", conn -> null);
      }
    }

    /** The keys of versions this transaction inserted are answered from what it wrote, without a round trip. */
    @Override
    public Map<String, List<String>> keysOf(Collection<String> versionIds) {
      checkOpen();
      if (versionIds.isEmpty()) {
        return Map.of();
      }
      if (!own.keySet().containsAll(versionIds)) {
        return super.keysOf(versionIds);
      }
      Map<String, List<String>> out = new LinkedHashMap<>();
      for (String id : versionIds) {
        List<String> k = own.get(id);
        if (!k.isEmpty()) {
          out.put(id, k);
        }
      }
      return out;
    }

    // ---- sources

    @Override
    public void insertSource(dev.engram.CapturedSource source) {
      if (!source.scope().equals(scope)) {
        throw new IllegalStateException("source of " + source.scope() + " in a transaction on " + scope);
      }
      dev.engram.spi.SourceState state = sourceState(scope);
      if (source.position() <= state.lastPosition()) {
        throw new IllegalStateException("source position " + source.position() + " does not follow "
            + state.lastPosition() + " in " + scope);
      }
      if (source(scope, source.id()).isPresent()) {
        throw new IllegalStateException("source " + source.id() + " already exists in " + scope);
      }
      defer(sql.insertSource, (ps, first) -> {
        int i = first;
        ps.setString(i++, scope);
        ps.setLong(i++, source.position());
        ps.setString(i++, source.id());
        ps.setString(i++, source.sessionId());
        ps.setString(i++, source.speaker());
        ps.setString(i++, source.text());
        ps.setString(i++, source.occurredAt().toString());
        ps.setLong(i++, source.occurredAt().getEpochSecond());
        ps.setInt(i++, source.occurredAt().getNano());
        ps.setString(i++, Rows.metadata(source.metadata()));
        ps.setString(i++, source.capturedAt().toString());
        return i;
      });
      defer(sql.sourceLastPosition, (ps, first) -> {
        ps.setString(first, scope);
        ps.setLong(first + 1, source.position());
        return first + 2;
      });
    }

    @Override
    public void advanceSourceCursor(long position) {
      dev.engram.spi.SourceState state = sourceState(scope);
      if (position < state.cursor() || position > state.lastPosition()) {
        throw new IllegalStateException("cursor " + position + " outside " + state.cursor() + ".."
            + state.lastPosition() + " in " + scope);
      }
      defer(sql.sourceCursor, (ps, first) -> {
        ps.setLong(first, position);
        ps.setString(first + 1, scope);
        return first + 2;
      });
    }

    @Override
    public void restoreSourceState(dev.engram.spi.SourceState state) {
      dev.engram.spi.SourceState now = sourceState(scope);
      if (state.lastPosition() < now.lastPosition()) {
        throw new IllegalStateException("last position " + state.lastPosition() + " is below " + now.lastPosition()
            + " in " + scope);
      }
      defer(sql.restoreSourceState, (ps, first) -> {
        ps.setString(first, scope);
        ps.setLong(first + 1, state.lastPosition());
        ps.setLong(first + 2, state.cursor());
        return first + 3;
      });
    }

    @Override
    public boolean eraseSource(String sourceId) {
      return write("erasing a source", conn -> {
        try (PreparedStatement ps = conn.prepareStatement(sql.eraseSource)) {
          ps.setString(1, scope);
          ps.setString(2, sourceId);
          return ps.executeUpdate() > 0;
        }
      });
    }

    // reads inside the transaction run on its connection and see its own writes

    @Override
    public long headRevision(String s) {
      if (s.equals(scope)) {
        checkOpen();
        return head;
      }
      return run("reading the head of " + s, conn -> reads.headRevision(conn, s));
    }

    @Override
    <T> T query(String what, SqlWork<T> work) {
      return run(what, work);
    }

    @Override
    Reads reads() {
      return reads;
    }

    @Override
    ExperienceSql experience() {
      return experience;
    }

    @Override
    UsageSql usage() {
      return usage;
    }

    // ---- model usage (schema version 17, UsageSql)

    @Override
    public void addModelUsage(List<dev.engram.ModelUsageRow> rows) {
      java.util.Objects.requireNonNull(rows, "rows");
      for (dev.engram.ModelUsageRow r : rows) {
        requireScope(java.util.Objects.requireNonNull(r, "row").scope(), "model usage");
      }
      if (rows.isEmpty()) {
        return;
      }
      write("adding model usage of " + scope, conn -> {
        usage.add(conn, rows);
        return null;
      });
    }

    // ---- experience and review items (schema version 15, ExperienceSql)

    @Override
    public void insertExperience(dev.engram.Experience version) {
      requireScope(version.scope(), "experience version " + version.versionId());
      write("storing experience version " + version.versionId(), conn -> {
        experience.insert(conn, scope, version);
        return null;
      });
    }

    @Override
    public void updateExperienceStatus(String versionId, dev.engram.ExperienceStatus status, Instant at) {
      write("changing the status of experience version " + versionId, conn -> {
        experience.status(conn, scope, versionId, status, at);
        return null;
      });
    }

    @Override
    public int eraseExperience(String experienceId) {
      return write("erasing experience " + experienceId, conn -> experience.erase(conn, scope, experienceId));
    }

    @Override
    public void putReviewItem(dev.engram.ReviewItem item) {
      requireScope(item.scope(), "review item " + item.id());
      write("storing review item " + item.id(), conn -> {
        experience.put(conn, item);
        return null;
      });
    }

    @Override
    public boolean eraseReviewItem(String itemId) {
      return write("erasing review item " + itemId, conn -> experience.eraseItem(conn, scope, itemId));
    }

    @Override
    public void advanceIncubationCursor(long position) {
      long last = sourceState(scope).lastPosition();
      long cursor = incubationCursor(scope);
      if (position < cursor || position > last) {
        throw new IllegalStateException("incubation cursor " + position + " outside " + cursor + ".." + last
            + " in " + scope);
      }
      write("advancing the incubation cursor of " + scope, conn -> {
        experience.incubate(conn, scope, position);
        return null;
      });
    }

    @Override
    public void advanceVectorEpoch() {
      write("advancing the vector epoch", conn -> {
        reads.advanceVectorEpoch(conn);
        return null;
      });
    }

    @Override
    public void putVectors(String profileId, List<StoredVector> vectors) {
      Objects.requireNonNull(profileId, "profileId");
      Map<String, List<StoredVector>> byVersion = new LinkedHashMap<>();
      for (StoredVector v : vectors) {
        byVersion.computeIfAbsent(v.versionId(), k -> new ArrayList<>()).add(v);
      }
      if (byVersion.isEmpty()) {
        checkOpen();
        return;
      }
      write("storing vectors", conn -> {
        java.sql.Array ids = Rows.textArray(conn, byVersion.keySet());
        try (PreparedStatement ps = conn.prepareStatement(sql.countExistingVersions)) {
          ps.setArray(1, ids);
          ps.setString(2, scope);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            if (rs.getInt(1) != byVersion.size()) {
              for (String id : byVersion.keySet()) {
                Optional<MemoryEntry> owner = reads.version(conn, id);
                if (owner.isEmpty()) {
                  throw new IllegalStateException("version " + id + " does not exist");
                }
                requireScope(owner.get().scope(), "vectors of version " + id);
              }
            }
          }
        }
        try (PreparedStatement ps = conn.prepareStatement(sql.deleteVectors)) {
          ps.setString(1, profileId);
          ps.setArray(2, ids);
          ps.executeUpdate();
        }
        try (PreparedStatement ps = conn.prepareStatement(sql.insertVector)) {
          for (Map.Entry<String, List<StoredVector>> group : byVersion.entrySet()) {
            int ordinal = 0;
            for (StoredVector v : group.getValue()) {
              ps.setString(1, group.getKey());
              ps.setString(2, profileId);
              ps.setInt(3, ordinal++);
              ps.setString(4, v.view());
              ps.setBytes(5, StoredVector.toBytes(v.vector()));
              ps.addBatch();
            }
          }
          ps.executeBatch();
        }
        return null;
      });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // builder

  /** Settings of a {@link PostgresMemoryStore}; exactly one of {@link #jdbcUrl} and {@link #dataSource} is required. */
  public static final class Builder {
    private @Nullable String jdbcUrl;
    private @Nullable DataSource dataSource;
    private String tablePrefix = DEFAULT_TABLE_PREFIX;
    private String schema = "";
    private boolean runMigrations = true;
    private int maximumPoolSize = 10;
    private int fullTextCandidates = DEFAULT_FULL_TEXT_CANDIDATES;
    private @Nullable Runnable afterClose;

    private Builder() {}

    /**
     * The database, as {@code jdbc:postgresql://host/db?user=…&password=…}; the store creates and owns a pool.
     *
     * @param url the database URL, starting with {@code jdbc:postgresql:}
     * @return this builder
     * @throws NullPointerException if {@code url} is null
     * @throws InvalidInputException if it does not start with {@code jdbc:postgresql:} (the message hides the
     *     password)
     * @throws IllegalStateException if a data source was already set
     */
    public Builder jdbcUrl(String url) {
      Objects.requireNonNull(url, "jdbcUrl");
      if (!url.startsWith("jdbc:postgresql:")) {
        throw new InvalidInputException("jdbcUrl", "must start with jdbc:postgresql:, was " + redact(url));
      }
      if (dataSource != null) {
        throw new IllegalStateException("dataSource was already set; set either jdbcUrl or dataSource");
      }
      this.jdbcUrl = url;
      return this;
    }

    /**
     * Connections from the application's pool; the store never closes it.
     *
     * @param source the application's connections
     * @return this builder
     * @throws NullPointerException if {@code source} is null
     * @throws IllegalStateException if a JDBC URL was already set
     */
    public Builder dataSource(DataSource source) {
      Objects.requireNonNull(source, "dataSource");
      if (jdbcUrl != null) {
        throw new IllegalStateException("jdbcUrl was already set; set either jdbcUrl or dataSource");
      }
      this.dataSource = source;
      return this;
    }

    /**
     * The prefix of every table and index name ({@code engram_} by default): empty or up to
     * 30 characters of {@code a-z 0-9 _}, not starting with a digit.
     *
     * @param prefix the prefix
     * @return this builder
     * @throws NullPointerException if {@code prefix} is null
     * @throws InvalidInputException if it is not such a prefix
     */
    public Builder tablePrefix(String prefix) {
      this.tablePrefix = checkPrefix(prefix);
      return this;
    }

    /**
     * The schema holding the tables, created by the migrations if missing. Unset, tables resolve
     * through the connection's {@code search_path}.
     *
     * @param name 1 to 63 characters of {@code a-z 0-9 _}, not starting with a digit
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     * @throws InvalidInputException if it is not such a name
     */
    public Builder schema(String name) {
      this.schema = checkSchema(name);
      return this;
    }

    /**
     * Whether the store applies missing migrations on start (default true). With false the host
     * manages the schema (see {@link PostgresMemoryStore#migrationScripts}); the store only checks that
     * it is there and not newer than this library.
     *
     * @param run whether to apply missing migrations
     * @return this builder
     */
    public Builder runMigrations(boolean run) {
      this.runMigrations = run;
      return this;
    }

    /**
     * Size of the pool the store creates from a {@link #jdbcUrl} (default 10).
     *
     * @param size 1 to 1000 connections
     * @return this builder
     * @throws InvalidInputException if it is out of range
     */
    public Builder maximumPoolSize(int size) {
      if (size < 1 || size > 1000) {
        throw new InvalidInputException("maximumPoolSize", "must be between 1 and 1000, was " + size);
      }
      this.maximumPoolSize = size;
      return this;
    }

    /**
     * The most versions one full-text search ranks ({@value PostgresMemoryStore#DEFAULT_FULL_TEXT_CANDIDATES}
     * by default; 0 ranks every matching version). A search whose terms match at most this many active
     * versions (the sum of its terms' document frequencies, kept per scope and term) ranks every match,
     * exactly as with 0. Past it, the search ranks a bounded candidate set instead: up to half the bound
     * of the versions holding the rarest term (three quarters for a query of two terms), a quarter
     * holding all but one of the four rarest terms and a quarter holding every term, each scored by the
     * same BM25 as a full ranking. The bound keeps the cost of a search (and of every write whose
     * reasoner is shown candidates) flat as a scope grows; its price is that a version outside the
     * candidate set is not found by that search.
     *
     * @param candidates 0, or 4 to 1,000,000 versions
     * @return this builder
     * @throws InvalidInputException if it is out of range
     */
    public Builder fullTextCandidates(int candidates) {
      if (candidates != 0 && (candidates < 4 || candidates > 1_000_000)) {
        throw new InvalidInputException("fullTextCandidates", "must be 0 or between 4 and 1000000, was "
            + candidates);
      }
      this.fullTextCandidates = candidates;
      return this;
    }

    /** Runs once when the store closes (the tests use it to recycle schemas). */
    Builder afterClose(Runnable action) {
      this.afterClose = Objects.requireNonNull(action, "afterClose");
      return this;
    }

    /**
     * Connects, applies or checks the schema, and returns the store.
     *
     * @return the store
     * @throws IllegalStateException if neither a JDBC URL nor a data source was set
     * @throws StoreException {@code STORE_UNAVAILABLE} when the database cannot be reached, {@code
     *     STORE_INCOMPATIBLE} when its schema is newer than this library (or missing with {@code
     *     runMigrations(false)})
     */
    public PostgresMemoryStore build() {
      if (jdbcUrl == null && dataSource == null) {
        throw new IllegalStateException("set jdbcUrl or dataSource before build()");
      }
      return new PostgresMemoryStore(this);
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.engram.EntryStatus;
import dev.engram.ErrorCode;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.StoreException;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.WorkClaim;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TopicState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A durable {@link MemoryStore} in one SQLite file.
 *
 * <pre>{@code
 * Engram engram = Engram.builder()
 *     .store(new SqliteMemoryStore(Path.of("memory.db")))
 *     .reasoner(new DeterministicReasoner())
 *     .build();
 * }</pre>
 *
 * <p>The database runs in WAL mode: readers use a pool of connections and never wait for the writer.
 * Writers are serialized deliberately: within the process by a lock around one writer connection, and
 * across processes by SQLite's write lock taken with {@code BEGIN IMMEDIATE} and waited for (see
 * {@link Builder#busyTimeout} and {@link Builder#writeLockTimeout}). Every transaction commits the version,
 * topic index, full-text index, revision and event together or not at all. Short reads run on the
 * writer connection while no transaction of this process uses it, because its page cache survives its
 * own commits.
 *
 * <p>Opened on a {@link Path}, the store owns two HikariCP pools (their housekeeping threads run until
 * {@link #close()}) and checkpoints the write-ahead log in the background
 * ({@link Builder#backgroundCheckpoint}) on the application's scheduler ({@link Builder#checkpointScheduler})
 * or, by default, on a daemon thread of its own, {@code engram-sqlite-checkpoint}, started with the first
 * commit. Opened on a {@link DataSource}, it uses only the caller's pool, which must allow at least two
 * connections at a time, and starts no thread.
 *
 * <p>The schema is created and upgraded on open and recorded in the {@code engram_schema_version} table.
 * A file that is not an Engram database, or whose schema is newer than this library, is refused with a
 * {@link StoreException} ({@link ErrorCode#STORE_INCOMPATIBLE}) and left unchanged.
 *
 * <p>Thread-safe. Several processes may open the same file at once. The class is the store's wiring and
 * lifecycle (opening, pools, the writer, group commit, checkpoints, closing) and its builder; the reads are
 * {@link Queries}', a transaction's writes {@link SqliteTransaction}'s.
 */
public final class SqliteMemoryStore extends SessionReads implements MemoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);
  private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  private static final AtomicInteger POOLS = new AtomicInteger();
  /**
   * With the background checkpoint, the write-ahead log frames (pages) after which the writer's commit
   * checkpoints the log itself ({@code PRAGMA wal_autocheckpoint}; SQLite's default is 1,000, the bound
   * without it). The background checkpoint keeps the log's pages copied, so the writer only copies what
   * arrived while it ran, and restarts the log.
   */
  static final int WAL_BOUND_FRAMES = 4_000;

  /** How hard SQLite pushes committed data to the disk ({@code PRAGMA synchronous}). */
  public enum Synchronous {
    /**
     * The default. In WAL mode every commit is safe against a crash of the process; a power loss or OS
     * crash may lose the last commits, never corrupt the file.
     */
    NORMAL,
    /** Every commit is also synced to the disk: safe against power loss, slower writes. */
    FULL
  }

  /** The store's cache of ranked versions' term frequencies (for tests). */
  BoundedFullText.Cache fullTextCache() {
    return fullTextCache;
  }

  /** The default of {@link Builder#fullTextCandidates}: the most versions one full-text search ranks. */
  public static final int DEFAULT_FULL_TEXT_CANDIDATES = 1200;

  /** The term frequencies of recently ranked versions, shared by the store's connections. */
  private final BoundedFullText.Cache fullTextCache = new BoundedFullText.Cache();
  private final String database;
  private final Connections readers;
  private final Connections writers;
  private final @Nullable HikariDataSource readPool;
  private final @Nullable HikariDataSource writePool;
  /** Copies the write-ahead log into the file off the writer's thread; null on a DataSource or when turned off. */
  private final @Nullable Checkpointer checkpointer;
  private final Duration writeLockTimeout;
  private final ReentrantLock writeLock = new ReentrantLock(true);
  private final ThreadLocal<SqliteTransaction> current = new ThreadLocal<>();
  private final GroupCommit group = new GroupCommit();
  /** SQLite commits of write transactions so far (a group is one). */
  private final java.util.concurrent.atomic.AtomicLong commits = new java.util.concurrent.atomic.AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** An erasure committed but its rows could not be wiped from the files yet; written under {@link #writeLock}. */
  private volatile boolean wipePending;
  /** The rebuild of such a wipe has not run yet (the log truncation may still be pending alone). */
  private volatile boolean vacuumPending;
  private final Set<StoreCapability> capabilities = Collections.unmodifiableSet(
      EnumSet.of(StoreCapability.DURABLE, StoreCapability.MULTI_PROCESS, StoreCapability.FULL_TEXT_SEARCH,
          StoreCapability.VECTOR_STORAGE, StoreCapability.SOURCES, StoreCapability.RETRIEVAL_KEYS,
          StoreCapability.REVIEW, StoreCapability.WORK_CLAIMS,
          StoreCapability.REPLACE_SCOPE, StoreCapability.MODEL_USAGE));

  /**
   * Registers on {@code connection} the SQL functions the schema's triggers call: the full-text index
   * holds the {@link dev.engram.spi.TextAnalysis} terms that {@code engram_fts_terms(text)} computes.
   * The store registers them on each of its own connections; a connection of another program that
   * inserts versions or changes their status in an Engram database needs them too (without, such a
   * statement fails with "no such function"). Reading needs none.
   *
   * @param connection a connection of the xerial sqlite-jdbc driver (or one wrapping it)
   * @throws SQLException if the connection is not an SQLite one or the function cannot be registered
   * @throws NullPointerException if {@code connection} is null
   */
  public static void registerSqlFunctions(Connection connection) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    Connection physical = connection.isWrapperFor(org.sqlite.SQLiteConnection.class)
        ? connection.unwrap(org.sqlite.SQLiteConnection.class) : connection;
    if (!(physical instanceof org.sqlite.SQLiteConnection)) {
      throw new SQLException(connection.getClass().getName() + " is not an org.sqlite.SQLiteConnection");
    }
    FtsTerms.register(physical);
  }

  /**
   * The schema version this library writes and reads.
   *
   * @return the latest migration's version
   */
  public static int schemaVersion() {
    return Migrations.latest();
  }

  /**
   * Opens (creating if needed) the database file with default settings; the store owns its connection pools
   * and closes them in {@link #close()}.
   *
   * @param file the database file (missing parent directories are created)
   * @throws NullPointerException if {@code file} is null
   * @throws StoreException if the file is not an Engram database or has a newer schema, or cannot be opened
   */
  public SqliteMemoryStore(Path file) {
    this(builder(file));
  }

  /**
   * Uses connections from {@code dataSource}, which must hand out xerial sqlite-jdbc connections. The store
   * applies its per-connection settings to each connection it borrows and leaves the DataSource open on
   * {@link #close()}.
   *
   * @param dataSource the connections, owned by the caller
   * @throws NullPointerException if {@code dataSource} is null
   * @throws StoreException if the database is not an Engram database or has a newer schema
   */
  public SqliteMemoryStore(DataSource dataSource) {
    this(builder(dataSource));
  }

  /**
   * Settings for a store on {@code file}.
   *
   * @param file the database file, created when missing
   * @return a builder with the default settings
   * @throws NullPointerException if {@code file} is null
   */
  public static Builder builder(Path file) {
    return new Builder(Objects.requireNonNull(file, "file"), null);
  }

  /**
   * Settings for a store on connections from {@code dataSource}.
   *
   * @param dataSource the connections, owned by the caller
   * @return a builder with the default settings
   * @throws NullPointerException if {@code dataSource} is null
   */
  public static Builder builder(DataSource dataSource) {
    return new Builder(null, Objects.requireNonNull(dataSource, "dataSource"));
  }

  private SqliteMemoryStore(Builder b) {
    this.writeLockTimeout = b.writeLockTimeout;
    List<String> pragmas = List.of(
        "PRAGMA busy_timeout = " + b.busyTimeout.toMillis(),
        "PRAGMA foreign_keys = ON",
        "PRAGMA synchronous = " + b.synchronous.name());
    HikariDataSource readPool = null;
    HikariDataSource writePool = null;
    if (b.file != null) {
      Path file = b.file.toAbsolutePath().normalize();
      this.database = file.toString();
      preflight(file, b.busyTimeout);
      SQLiteDataSource source = sqliteDataSource(file, b);
      try {
        writePool = pool(source, "write", 1);
        readPool = pool(source, "read", b.readPoolSize);
      } catch (RuntimeException e) {
        closeQuietly(writePool);
        throw StoreException.unavailable("cannot open SQLite database " + database + ": " + e.getMessage(), e);
      }
      List<String> writerPragmas = new ArrayList<>(pragmas);
      if (b.backgroundCheckpoint) {
        writerPragmas.add("PRAGMA wal_autocheckpoint = " + WAL_BOUND_FRAMES);
      }
      this.writers = new Connections(writePool, writerPragmas, b.fullTextCandidates, fullTextCache);
      this.readers = new Connections(readPool, pragmas, b.fullTextCandidates, fullTextCache);
      this.checkpointer = b.backgroundCheckpoint ? new Checkpointer(source, database, b.checkpointScheduler) : null;
    } else {
      DataSource source = Objects.requireNonNull(b.dataSource);
      this.database = "SQLite DataSource " + source.getClass().getName();
      this.writers = new Connections(source, pragmas, b.fullTextCandidates, fullTextCache);
      this.readers = writers;
      this.checkpointer = null;
    }
    this.readPool = readPool;
    this.writePool = writePool;
    try (Connections.Lease lease = writers.borrow()) {
      Migrations.migrate(lease.session(), database, writeLockTimeout);
    } catch (SQLException e) {
      closeResources();
      throw failure("open the database", e);
    } catch (RuntimeException | Error e) {
      closeResources();
      throw e;
    }
  }

  /**
   * Refuses a file that is not an SQLite database, or not Engram's, before a pool ever touches it. The
   * file is judged through a read-only connection; without a write-ahead log beside it the connection
   * is also {@code immutable}, so not even a {@code -shm} or {@code -wal} file appears next to a file
   * that is then refused.
   */
  private static void preflight(Path file, Duration busyTimeout) {
    String name = file.toString();
    if (Files.isDirectory(file)) {
      throw new StoreException(ErrorCode.STORE_INCOMPATIBLE, name + " is a directory, not a database file", null);
    }
    try {
      if (!Files.exists(file)) {
        Path parent = file.getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        return;
      }
      if (Files.size(file) == 0) {
        return;
      }
      byte[] header = new byte[SQLITE_HEADER.length];
      int n;
      try (InputStream in = Files.newInputStream(file)) {
        n = in.readNBytes(header, 0, header.length);
      }
      if (n < header.length || !Arrays.equals(header, SQLITE_HEADER)) {
        throw new StoreException(ErrorCode.STORE_INCOMPATIBLE,
            name + " is not an Engram database: it is not an SQLite database file; it was left unchanged", null);
      }
    } catch (IOException e) {
      throw StoreException.unavailable("cannot read " + name + ": " + e.getMessage(), e);
    }
    SQLiteConfig readOnly = new SQLiteConfig();
    readOnly.setReadOnly(true);
    readOnly.setBusyTimeout((int) busyTimeout.toMillis());
    boolean wal = Files.exists(file.resolveSibling(file.getFileName() + "-wal"));
    String url = wal ? "jdbc:sqlite:" + file : "jdbc:sqlite:" + file.toUri() + "?immutable=1";
    try (Connection c = readOnly.createConnection(url)) {
      Migrations.requireUsable(name, Migrations.inspect(new Session(c)));
    } catch (SQLException e) {
      throw SqliteErrors.map(name, "inspect the database file", e);
    }
  }

  private static SQLiteDataSource sqliteDataSource(Path file, Builder b) {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout((int) b.busyTimeout.toMillis());
    config.enforceForeignKeys(true);
    config.setGetGeneratedKeys(false);
    config.setSynchronous(b.synchronous == Synchronous.FULL
        ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + file);
    return source;
  }

  private static HikariDataSource pool(DataSource source, String role, int size) {
    HikariConfig config = new HikariConfig();
    config.setDataSource(source);
    config.setPoolName("engram-sqlite-" + role + "-" + POOLS.incrementAndGet());
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    config.setIdleTimeout(0);
    config.setMaxLifetime(0);
    config.setAutoCommit(true);
    return new HikariDataSource(config);
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return capabilities;
  }

  /**
   * Runs {@code work} in one SQLite transaction holding the write lock. A transaction started inside
   * another on the same thread runs as a savepoint of the outer one.
   *
   * <p>Concurrent transactions of this process are committed in groups ({@link GroupCommit}): the
   * thread holding the write lock runs the queued ones in one SQLite transaction, each in its own
   * savepoint, and commits once. Each caller returns only after that commit; a transaction that throws
   * is rolled back alone and only its caller sees the error. When the commit itself fails, every
   * transaction of its group fails with that error and none is stored.
   *
   * @param <T> what the work returns
   * @param scope the scope the transaction may write
   * @param work the work to run
   * @return what the work returned
   * @throws NullPointerException if {@code scope} or {@code work} is null
   * @throws StoreException when the store fails or the write lock is not had within the write-lock timeout
   */
  @Override
  public <T> T inTransaction(String scope, StoreWork<T> work) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(work, "work");
    checkOpen();
    SqliteTransaction outer = current.get();
    if (outer != null) {
      return nested(outer, scope, work);
    }
    GroupCommit.Request<T> mine = new GroupCommit.Request<>(scope, work);
    group.enqueue(mine);
    try {
      acquireWriteLock();
    } catch (RuntimeException e) {
      if (group.withdraw(mine)) {
        throw e;
      }
      mine.await();
      return mine.result();
    }
    try {
      while (!mine.done()) {
        runGroup(group.next());
      }
    } finally {
      writeLock.unlock();
    }
    return mine.result();
  }

  /**
   * Runs one group in one SQLite transaction. A group of one runs without a savepoint (a failure rolls
   * the whole transaction back); in a larger group each request gets its own savepoint.
   */
  private void runGroup(List<GroupCommit.Request<?>> requests) {
    if (requests.isEmpty()) {
      return;
    }
    String what = "run a transaction on " + requests.get(0).scope;
    try (Connections.Lease lease = writers.borrow()) {
      Session session = lease.session();
      WriteLock.begin(session, database, writeLockTimeout);
      boolean kept = false;
      boolean erased = false;
      try {
        for (GroupCommit.Request<?> r : requests) {
          if (runInGroup(session, r, requests.size() == 1)) {
            kept = true;
            erased |= r.erased;
          }
        }
      } catch (RuntimeException | Error e) {
        session.rolledBack();
        WriteLock.rollbackQuietly(session, e);
        if (e instanceof StoreException) {
          session.closeStatements();
        }
        throw e;
      }
      if (!kept) {
        session.rolledBack();
        WriteLock.rollbackQuietly(session, null);
        return;
      }
      try {
        session.flushFullText();
        WriteLock.commit(session, database, writeLockTimeout);
      } catch (SQLException | RuntimeException e) {
        session.rolledBack();
        WriteLock.rollbackQuietly(session, e);
        session.closeStatements();
        throw e;
      }
      commits.incrementAndGet();
      if (checkpointer != null) {
        checkpointer.committed();
      }
      if (erased) {
        // a search that ran before the commit may have cached an erased version's terms
        session.fullTextCache().clear();
      }
      if (erased || wipePending) {
        wipeErased(session, erased);
      }
    } catch (SQLException e) {
      failAll(requests, failure(what, e));
    } catch (RuntimeException | Error e) {
      failAll(requests, e);
    } finally {
      for (GroupCommit.Request<?> r : requests) {
        r.finish();
      }
    }
  }

  /** How many SQLite commits write transactions made so far (a group of transactions is one). */
  long commitCount() {
    return commits.get();
  }

  /** How many transactions wait for the writer connection. */
  int queuedTransactions() {
    return group.size();
  }

  /** Fails every request of a group that has no error of its own yet: nothing of the group is stored. */
  private static void failAll(List<GroupCommit.Request<?>> requests, Throwable e) {
    for (GroupCommit.Request<?> r : requests) {
      r.fail(e);
    }
  }

  /** Runs one request of a group; true when its work returned and its changes are kept. */
  private <T> boolean runInGroup(Session session, GroupCommit.Request<T> r, boolean alone) {
    SqliteTransaction tx = new SqliteTransaction(this, session, r.scope, 0);
    if (!alone) {
      try {
        session.executePrepared("SAVEPOINT engram_group");
        session.savepointBegun();
      } catch (SQLException e) {
        r.fail(failure("open a transaction on " + r.scope, e));
        return false;
      }
    }
    current.set(tx);
    try {
      r.ran(r.work.run(tx));
    } catch (RuntimeException | Error e) {
      r.fail(e);
      if (e instanceof StoreException) {
        // a statement the driver finalized on the failure (a full disk) would fail its next use
        session.closeStatements();
      }
    } finally {
      tx.close();
      current.remove();
    }
    if (alone) {
      r.erased = tx.erased();
      return r.succeeded();
    }
    try {
      if (r.succeeded()) {
        session.executePrepared("RELEASE engram_group");
        session.savepointReleased();
        r.erased = tx.erased();
        return true;
      }
      session.executePrepared("ROLLBACK TO engram_group");
      session.savepointRolledBack();
      session.executePrepared("RELEASE engram_group");
      return false;
    } catch (SQLException e) {
      // the savepoint is in an unknown state: the whole group fails rather than commit half of one
      throw failure("close the savepoint of a transaction on " + r.scope, e);
    }
  }

  private <T> T nested(SqliteTransaction outer, String scope, StoreWork<T> work) {
    Session session = outer.session();
    SqliteTransaction tx = new SqliteTransaction(this, session, scope, outer.depth() + 1);
    String savepoint = "engram_nested_" + tx.depth();
    try {
      session.execute("SAVEPOINT " + savepoint);
      session.savepointBegun();
    } catch (SQLException e) {
      throw failure("open a nested transaction on " + scope, e);
    }
    current.set(tx);
    try {
      T result = work.run(tx);
      session.execute("RELEASE " + savepoint);
      session.savepointReleased();
      if (tx.erased()) {
        outer.markErased();
      }
      return result;
    } catch (RuntimeException | Error e) {
      try {
        session.execute("ROLLBACK TO " + savepoint);
        session.savepointRolledBack();
        session.execute("RELEASE " + savepoint);
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    } catch (SQLException e) {
      throw failure("release a nested transaction on " + scope, e);
    } finally {
      tx.close();
      current.set(outer);
    }
  }

  /**
   * After a commit that erased rows, removes every copy of them from the files. Deleted rows leave
   * their bytes behind in SQLite: in freed pages, and in the unused space of pages whose cells a split
   * or merge once moved (which {@code secure_delete} does not clear). So the database is rebuilt
   * ({@code VACUUM}: only live rows are copied, into fresh pages), and then the write-ahead log, whose
   * frames of earlier commits still hold the erased text, is copied into the file and truncated to
   * zero bytes ({@code PRAGMA wal_checkpoint(TRUNCATE)}). Both wait (busy timeout) for other
   * connections, and the background checkpoint, which SQLite would let only one of the two run, waits for
   * the wipe; when a reader outlasts the wait, the wipe is retried after each following commit and on
   * {@link #close()}, and the delay is logged.
   */
  private void wipeErased(Session session, boolean erased) {
    if (checkpointer != null) {
      checkpointer.exclusively(() -> wipe(session, erased));
    } else {
      wipe(session, erased);
    }
  }

  /** The wipe itself; true when the log is empty afterwards. */
  private boolean wipe(Session session, boolean erased) {
    try {
      if (erased || vacuumPending) {
        vacuumPending = true;
        session.execute("VACUUM");
        vacuumPending = false;
      }
      boolean busy;
      try (java.sql.Statement st = session.connection().createStatement();
          java.sql.ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
        busy = rs.next() && rs.getInt(1) != 0;
      }
      if (busy && !wipePending) {
        LOG.warn("{}: erased rows may remain in the write-ahead log until a reader of an older snapshot finishes;"
            + " the log is wiped after the next commit or on close", database);
      }
      wipePending = busy;
      return !busy;
    } catch (SQLException e) {
      if (!wipePending) {
        LOG.warn("{}: could not remove erased rows from the files yet ({}); retried after the next commit or on close",
            database, e.getMessage());
      }
      wipePending = true;
      return false;
    }
  }

  private void acquireWriteLock() {
    try {
      if (!writeLock.tryLock(writeLockTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw StoreException.unavailable("another transaction of this process held the write lock of " + database
            + " for more than " + writeLockTimeout.toMillis() + " ms", null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StoreException.unavailable("interrupted while waiting for the write lock of " + database, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>In a write transaction on the file ({@code work_claims}), so claimers in every process that opens the
   * file get disjoint claims; leases on the claiming process's clock (keep the clocks of processes that share
   * a file in step).
   */
  @Override
  public List<WorkClaim> claimDirtyTopics(String workerId, Collection<String> scopes, int limit, Duration lease) {
    List<String> checked = WorkClaim.checkClaim(workerId, scopes, limit, lease);
    return claimWrite("claim dirty topics",
        s -> WorkClaims.claim(s, WorkClaim.Kind.DIRTY_TOPIC, workerId, checked, limit, lease));
  }

  /**
   * {@inheritDoc}
   *
   * <p>In a write transaction on the file, as {@link #claimDirtyTopics(String, Collection, int, Duration)}.
   */
  @Override
  public List<WorkClaim> claimPendingSources(String workerId, Collection<String> scopes, int limit, Duration lease) {
    List<String> checked = WorkClaim.checkClaim(workerId, scopes, limit, lease);
    return claimWrite("claim scopes with pending sources",
        s -> WorkClaims.claim(s, WorkClaim.Kind.PENDING_SOURCES, workerId, checked, limit, lease));
  }

  @Override
  public boolean releaseClaim(WorkClaim claim) {
    Objects.requireNonNull(claim, "claim");
    return claimWrite("release a claim", s -> WorkClaims.release(s, claim));
  }

  /** A short write transaction of its own on the writer connection, outside the group commit. */
  private <T> T claimWrite(String what, Read<T> work) {
    checkOpen();
    if (current.get() != null) {
      throw new IllegalStateException("work claims are not taken inside a store transaction");
    }
    acquireWriteLock();
    try (Connections.Lease lease = writers.borrow()) {
      Session session = lease.session();
      WriteLock.begin(session, database, writeLockTimeout);
      T out;
      try {
        out = work.run(session);
        WriteLock.commit(session, database, writeLockTimeout);
      } catch (SQLException | RuntimeException e) {
        WriteLock.rollbackQuietly(session, e);
        throw e;
      }
      return out;
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      writeLock.unlock();
    }
  }

  /** Background checkpoints run so far (zero without them). */
  long checkpointRuns() {
    return checkpointer == null ? 0 : checkpointer.runs();
  }

  /**
   * Waits until a background checkpoint copied every commit so far into the database file; false when
   * {@code timeout} passes first or there are no background checkpoints.
   */
  boolean awaitCheckpointed(Duration timeout) throws InterruptedException {
    return checkpointer != null && checkpointer.awaitCopied(timeout);
  }

  /** Closes the connection pools the store created and the statements it cached. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      closeResources();
    }
  }

  private void closeResources() {
    if (checkpointer != null) {
      checkpointer.close();
    }
    if (wipePending && writePool != null && writeLock.tryLock()) {
      try (Connections.Lease lease = writers.borrow()) {
        readers.closeSessions();
        closeQuietly(readPool);
        wipeErased(lease.session(), false);
      } catch (SQLException | RuntimeException e) {
        LOG.warn("{}: could not remove erased rows from the files on close: {}", database, e.getMessage());
      } finally {
        writeLock.unlock();
      }
    }
    readers.closeSessions();
    writers.closeSessions();
    closeQuietly(readPool);
    closeQuietly(writePool);
  }

  private static void closeQuietly(@Nullable HikariDataSource pool) {
    if (pool != null) {
      pool.close();
    }
  }

  @Override
  public String toString() {
    return "SqliteMemoryStore[" + database + "]";
  }

  private void checkOpen() {
    if (closed.get()) {
      throw StoreException.closed("SqliteMemoryStore on " + database + " is closed");
    }
  }

  StoreException failure(String what, SQLException e) {
    return SqliteErrors.map(database, what, e);
  }

  /** A read on a pooled read connection. */
  private <T> T read(String what, Read<T> query) {
    checkOpen();
    try (Connections.Lease lease = readers.borrow()) {
      return query.run(lease.session());
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  /**
   * A short read, on the writer connection when no transaction of this process is using it, else on a
   * pooled read connection. The writer's page cache stays valid across its own commits, while a read
   * connection must reload every page another connection changed; a process that alternates writes and
   * reads on one thread (the engine's write path) saves that reload.
   */
  private <T> T pointRead(String what, Read<T> query) {
    checkOpen();
    if (writePool != null && !writeLock.isHeldByCurrentThread() && writeLock.tryLock()) {
      try (Connections.Lease lease = writers.borrow()) {
        return query.run(lease.session());
      } catch (SQLException e) {
        throw failure(what, e);
      } finally {
        writeLock.unlock();
      }
    }
    return read(what, query);
  }

  @Override
  <T> T read(String what, boolean point, Read<T> query) {
    return point ? pointRead(what, query) : read(what, query);
  }

  @Override
  public List<String> vectorProfiles() {
    return read("list the embedding profiles of stored vectors", s -> {
      List<String> out = new java.util.ArrayList<>();
      try (java.sql.ResultSet rs = s.prepare("SELECT DISTINCT profile FROM version_vectors ORDER BY 1").executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    });
  }

  /**
   * Settings of a {@link SqliteMemoryStore}. Each may be given once; {@link #build()} opens the store.
   */
  public static final class Builder {
    private final @Nullable Path file;
    private final @Nullable DataSource dataSource;
    private Synchronous synchronous = Synchronous.NORMAL;
    private Duration busyTimeout = Duration.ofSeconds(5);
    private Duration writeLockTimeout = Duration.ofSeconds(30);
    private int readPoolSize = 4;
    private int fullTextCandidates = DEFAULT_FULL_TEXT_CANDIDATES;
    private boolean backgroundCheckpoint = true;
    private java.util.concurrent.@Nullable ScheduledExecutorService checkpointScheduler;
    private final Set<String> given = new java.util.HashSet<>();
    private boolean built;

    private Builder(@Nullable Path file, @Nullable DataSource dataSource) {
      this.file = file;
      this.dataSource = dataSource;
    }

    /**
     * {@code PRAGMA synchronous} for the store's connections (default {@link Synchronous#NORMAL}).
     *
     * @param synchronous the durability of a commit
     * @return this builder
     * @throws NullPointerException if {@code synchronous} is null
     * @throws IllegalStateException if the setting was already given or the builder was built
     */
    public Builder synchronous(Synchronous synchronous) {
      once("synchronous");
      this.synchronous = Objects.requireNonNull(synchronous, "synchronous");
      return this;
    }

    /**
     * How long one SQLite call waits for a lock another connection holds before trying again
     * ({@code PRAGMA busy_timeout}; default 5 s, 0..10 min).
     *
     * @param timeout 0 to 10 minutes
     * @return this builder
     * @throws NullPointerException if {@code timeout} is null
     * @throws InvalidInputException if it is out of range
     * @throws IllegalStateException if the setting was already given or the builder was built
     */
    public Builder busyTimeout(Duration timeout) {
      once("busyTimeout");
      this.busyTimeout = check("busyTimeout", timeout, Duration.ZERO);
      return this;
    }

    /**
     * How long a transaction waits in total for the write lock (held by another thread or process)
     * before it fails with {@link ErrorCode#STORE_UNAVAILABLE} (default 30 s, 1 ms..10 min).
     *
     * @param timeout 1 ms to 10 minutes
     * @return this builder
     * @throws NullPointerException if {@code timeout} is null
     * @throws InvalidInputException if it is out of range
     * @throws IllegalStateException if the setting was already given or the builder was built
     */
    public Builder writeLockTimeout(Duration timeout) {
      once("writeLockTimeout");
      this.writeLockTimeout = check("writeLockTimeout", timeout, Duration.ofMillis(1));
      return this;
    }

    /**
     * The most versions one full-text search ranks ({@value SqliteMemoryStore#DEFAULT_FULL_TEXT_CANDIDATES}
     * by default; 0 ranks every matching version in the full-text index). A search whose terms match at
     * most this many active versions of its scopes (the sum of its terms' document frequencies, kept per
     * scope and term) is ranked by FTS5's {@code bm25()} exactly as with 0. Past it, the search ranks a
     * bounded candidate set instead: up to half the bound of the newest versions holding the rarest term
     * (three quarters for a query of two terms),
     * a quarter holding all but one of the four rarest terms and a quarter holding every term, each
     * scored by the same BM25 with the same statistics as {@code bm25()}. The bound keeps the cost of a
     * search (and of every write whose reasoner is shown candidates) flat as a scope grows; its price is
     * that a version outside the candidate set is not found by that search.
     *
     * @param candidates 0, or 4 to 1,000,000 versions
     * @return this builder
     * @throws InvalidInputException if it is out of range
     * @throws IllegalStateException if the setting was already given or the builder was built
     */
    public Builder fullTextCandidates(int candidates) {
      once("fullTextCandidates");
      if (candidates != 0 && (candidates < 4 || candidates > 1_000_000)) {
        throw new InvalidInputException("fullTextCandidates", "must be 0 or between 4 and 1000000, was "
            + candidates);
      }
      this.fullTextCandidates = candidates;
      return this;
    }

    /**
     * Most read connections the store's own pool opens (default 4, 1..64); not used with a DataSource.
     *
     * @param size 1 to 64 connections
     * @return this builder
     * @throws InvalidInputException if it is out of range
     * @throws IllegalStateException if the setting was already given or the builder was built
     */
    public Builder readPoolSize(int size) {
      once("readPoolSize");
      if (size < 1 || size > 64) {
        throw new InvalidInputException("readPoolSize", "must be between 1 and 64, was " + size);
      }
      this.readPoolSize = size;
      return this;
    }

    /**
     * Whether a thread of the store copies the write-ahead log into the database file, so that a
     * write's {@code COMMIT} does not (default true; not used with a DataSource, whose connections the
     * caller configures). SQLite checkpoints inside the commit that takes the log past 1,000 pages,
     * which then also syncs both files: about one write in fifty pays that. With this on, the store's
     * thread runs a passive checkpoint (it waits for no lock and no writer waits for it) after every 32
     * commits or 200 ms after a commit, and the writer checkpoints itself only at 4,000 pages. What a
     * commit guarantees is the same either way; off, nothing is scheduled, no thread is started and
     * SQLite's default applies. Where the checkpoints run: {@link #checkpointScheduler}.
     *
     * @param enabled whether to checkpoint in the background
     * @return this builder
     * @throws IllegalStateException if the setting was already given or the builder was built
     */
    public Builder backgroundCheckpoint(boolean enabled) {
      once("backgroundCheckpoint");
      this.backgroundCheckpoint = enabled;
      return this;
    }

    /**
     * Where the background checkpoints run ({@link #backgroundCheckpoint}), instead of a thread of the
     * store's own: short tasks (one passive checkpoint each, at most one at a time) scheduled after a
     * commit, the way {@code Caffeine.scheduler(...)} takes the application's scheduler. The store never
     * shuts it down; a scheduler that refuses a task is logged at WARN, and the writer's own checkpoint still
     * bounds the log. By default the store runs them on one daemon thread, {@code engram-sqlite-checkpoint},
     * started with its first commit and stopped by {@link SqliteMemoryStore#close()}.
     *
     * @param scheduler the scheduler
     * @return this builder
     * @throws IllegalStateException if it was already set
     */
    public Builder checkpointScheduler(java.util.concurrent.ScheduledExecutorService scheduler) {
      once("checkpointScheduler");
      this.checkpointScheduler = Objects.requireNonNull(scheduler, "checkpointScheduler");
      return this;
    }

    /**
     * Opens the store.
     *
     * @return the store, owning the connection pools it opened
     * @throws StoreException if the database is not an Engram database or has a newer schema, or cannot be
     *     opened
     * @throws IllegalStateException if it was already built, or a {@link #checkpointScheduler} was given to a
     *     store without background checkpoints (turned off, or opened on a DataSource)
     */
    public SqliteMemoryStore build() {
      if (built) {
        throw new IllegalStateException("build() was already called on this builder");
      }
      if (checkpointScheduler != null && (!backgroundCheckpoint || dataSource != null)) {
        throw new IllegalStateException("checkpointScheduler was set, but this store runs no background checkpoint ("
            + (dataSource != null ? "it is opened on a DataSource" : "backgroundCheckpoint is false") + ")");
      }
      built = true;
      return new SqliteMemoryStore(this);
    }

    private void once(String setting) {
      if (built) {
        throw new IllegalStateException("the builder was already built; " + setting + " cannot change");
      }
      if (!given.add(setting)) {
        throw new IllegalStateException(setting + " was already set");
      }
    }

    private static Duration check(String setting, Duration value, Duration min) {
      Objects.requireNonNull(value, setting);
      if (value.compareTo(min) < 0 || value.compareTo(Duration.ofMinutes(10)) > 0) {
        throw new InvalidInputException(setting, "must be between " + min.toMillis() + " ms and 10 min, was "
            + value.toMillis() + " ms");
      }
      return value;
    }
  }
}

package dev.engram;

import java.util.List;

/**
 * Durable, governed memory for agents. Create one with {@link #builder()}; it is thread-safe and meant
 * to be shared. Every call takes {@link Grants}: nothing outside the visible scopes is returned, and
 * nothing lands outside the writable ones.
 *
 * <pre>{@code
 * Engram engram = Engram.builder()
 *     .store(new InMemoryMemoryStore())
 *     .reasoner(new DeterministicReasoner())
 *     .build();
 * }</pre>
 */
public interface Engram extends AutoCloseable {

  static EngramBuilder builder() {
    return new EngramBuilder();
  }

  // ---- writing -------------------------------------------------------------------------------

  default WriteResult write(Grants grants, String content) {
    return write(grants, content, WriteOptions.defaults());
  }

  /**
   * Files content through the reasoner and commits it atomically. Canonically equal content already
   * active in the target scope is a no-op ({@code DEDUPED}); a write to an active {@code path} makes a
   * new version of that entry ({@code UPDATED}).
   */
  WriteResult write(Grants grants, String content, WriteOptions options);

  default MemoryEntry correct(Grants grants, String entryId, String content) {
    return correct(grants, entryId, content, ChangeOptions.none());
  }

  /**
   * Writes a new version of an active entry with new content; it inherits scope, topics, type and the
   * other fields, and the old version is superseded. Equal content is a no-op that returns the current
   * version.
   */
  MemoryEntry correct(Grants grants, String entryId, String content, ChangeOptions options);

  default MemoryEntry retire(Grants grants, Citation citation, String reason) {
    return retire(grants, citation, ChangeOptions.reason(reason));
  }

  /** Deactivates the cited current version. A stale citation is a {@link RevisionConflictException}. */
  MemoryEntry retire(Grants grants, Citation citation, ChangeOptions options);

  default MemoryEntry reactivate(Grants grants, Citation citation, String reason) {
    return reactivate(grants, citation, ChangeOptions.reason(reason));
  }

  /** Makes the cited retired version active again. */
  MemoryEntry reactivate(Grants grants, Citation citation, ChangeOptions options);

  default MemoryEntry rollback(Grants grants, String eventId) {
    return rollback(grants, eventId, ChangeOptions.none());
  }

  /**
   * Restores content, priority, disclosure and glossary from a create/update/rollback event as a new
   * version (and a new event). Nothing is edited in place: an entry merged away comes back as a new
   * version and its merged-away version stays as it was. A retired entry is refused with
   * {@link EntryStateException} (reactivate it first), and so is content another active entry holds.
   */
  MemoryEntry rollback(Grants grants, String eventId, ChangeOptions options);

  /** Erases an entry everywhere: versions, events, indexes. Returns the number of versions removed. */
  int deleteEntry(Grants grants, String entryId);

  /** Erases a writable scope (and, when recursive, every scope below it). Returns the entries removed. */
  int deleteScope(Grants grants, String prefix, boolean recursive);

  // ---- sources: what happened, and extraction into memories ---------------------------------

  /**
   * Captures one source record (see {@link #captureAll}).
   *
   * @param grants the caller's grants; the record goes to its scope or, without one, the first grant
   * @param record what happened
   * @return the stored record (the earlier one when its id was already captured in the scope)
   * @throws InvalidInputException naming the field when the record is malformed
   * @throws ScopeViolationException when the target scope is not writable
   * @throws CapabilityNotSupportedException when the store does not declare {@code SOURCES}
   */
  default CapturedSource capture(Grants grants, SourceRecord record) {
    return captureAll(grants, List.of(record)).get(0);
  }

  /**
   * Captures records, append-only, in one transaction per target scope, in the order given. Capture
   * writes no entry and makes no revision (sources have their own order, {@link CapturedSource#position()}).
   * A record whose id is already captured in its scope is a no-op: the stored record is returned for it.
   * Every record is validated before anything is stored.
   *
   * @param grants the caller's grants
   * @param records at most 10,000 records
   * @return the stored records, one per record given, in the same order
   * @throws InvalidInputException naming the record and field when one is malformed
   * @throws ScopeViolationException when a target scope is not writable
   * @throws CapabilityNotSupportedException when the store does not declare {@code SOURCES}
   */
  List<CapturedSource> captureAll(Grants grants, List<SourceRecord> records);

  /**
   * Captured records of the visible scopes, by scope then capture order.
   *
   * @param grants the caller's grants
   * @param query which records
   * @return at most {@code query.limit()} records
   * @throws NotFoundException when {@code query.scope()} is not visible
   */
  List<CapturedSource> sources(Grants grants, SourceQuery query);

  /**
   * Erases one captured record (right to be forgotten). Entries that cite it keep their content; erase
   * those with {@link #deleteEntry} too. {@link #deleteScope} erases a scope's sources and cursor.
   *
   * @param grants the caller's grants; the scope must be writable
   * @param scope the record's scope
   * @param sourceId the record's id
   * @throws NotFoundException when there is no such record
   */
  void deleteSource(Grants grants, String scope, String sourceId);

  default FlushReport flush(Grants grants) {
    return flush(grants, FlushOptions.defaults());
  }

  /**
   * Turns captured records into memories: per writable scope at or below the grants, the records after
   * the scope's cursor go to {@link dev.engram.spi.Reasoner#extract} in windows; its candidates are
   * validated as untrusted (evidence must be ids of that window), deduplicated canonically, and
   * committed in one transaction with the cursor advance. A failure leaves nothing of the window; a
   * flush never commits a window twice, also when several run at once.
   *
   * @param grants the caller's grants
   * @param options window size and bound
   * @return what was processed
   * @throws ReasonerException when the reasoner fails or a candidate is invalid (nothing of that window is written)
   * @throws CapabilityNotSupportedException when the store does not declare {@code SOURCES} or the reasoner
   *     does not extract
   */
  FlushReport flush(Grants grants, FlushOptions options);

  /**
   * The captured records the current version of an entry cites, in citation order (evidence refs that
   * name no captured record of its scope, e.g. of an explicit write, are left out).
   *
   * @param grants the caller's grants
   * @param entryId a visible entry
   * @return the cited records
   * @throws NotFoundException when the entry is not visible
   */
  List<CapturedSource> evidence(Grants grants, String entryId);

  // ---- reading -------------------------------------------------------------------------------

  default List<MemoryEntry> read(Grants grants, String topic) {
    return read(grants, List.of(topic), ReadOptions.defaults());
  }

  default List<MemoryEntry> read(Grants grants, String topic, ReadOptions options) {
    return read(grants, List.of(topic), options);
  }

  default List<MemoryEntry> read(Grants grants, List<String> topics) {
    return read(grants, topics, ReadOptions.defaults());
  }

  /** Active entries of the topics in visible scopes, newest first, each once, at most {@code limit} per topic. */
  List<MemoryEntry> read(Grants grants, List<String> topics, ReadOptions options);

  /** Topic summaries of every visible scope, ordered by scope then topic. */
  List<TopicSummary> scan(Grants grants);

  default List<MemoryEntry> list(Grants grants) {
    return list(grants, ListOptions.defaults());
  }

  /** The deterministic audit read: ordered by scope, creating revision, then version. */
  List<MemoryEntry> list(Grants grants, ListOptions options);

  /** Any version, current or historical, by exact citation. */
  MemoryEntry get(Grants grants, Citation citation);

  /** The current version of an entry (whatever its status). */
  MemoryEntry get(Grants grants, String entryId);

  /** Every event of an entry, oldest first, with before/after snapshots, actor and reason. */
  List<MemoryEvent> history(Grants grants, String entryId);

  /** The current revision of a visible scope (0 if nothing was committed there). */
  long revision(Grants grants, String scope);

  /** Revisions of a visible scope after {@code sinceRevision}, oldest first. */
  List<Revision> changes(Grants grants, String scope, long sinceRevision);

  // ---- search and context ---------------------------------------------------------------------

  /**
   * Finds active entries in the visible scopes. Superseded and retired versions are never ranked.
   * An explicit {@code VECTOR} or {@code HYBRID} request that cannot run fails with
   * {@link CapabilityNotSupportedException} naming what is missing; only {@code AUTO} falls back.
   */
  SearchResult search(Grants grants, SearchRequest request);

  default SearchResult search(Grants grants, String query) {
    return search(grants, SearchRequest.of(query));
  }

  /**
   * A bounded, cited context for a model: candidates from an {@code AUTO} search, deduplicated, each
   * capped, the whole within {@code maxBytes} UTF-8 bytes, labelled as untrusted history.
   */
  PreparedContext prepareContext(Grants grants, ContextRequest request);

  /**
   * Embeds every active version in the visible scopes that has no vector for the current embedder
   * profile (after a profile change, or after write-time embedding failed). Returns the number of
   * versions embedded.
   */
  int reindex(Grants grants);

  // ---- moving memory between stores ----------------------------------------------------------

  /**
   * Writes everything in the scopes visible to {@code grants} as JSON Lines: every version of every
   * entry, every event, the revision log and the topic bookkeeping. Lossless: importing the result into
   * an empty store gives identical {@code list(includeSuperseded)}, {@code history} and {@code scan}.
   * Each scope is read inside one store transaction on it, so it is written at one revision even while
   * writes continue (they wait for that scope meanwhile); an export taken under traffic imports.
   */
  TransferReport export(Grants grants, java.io.Writer out);

  /**
   * Reads an {@link #export} stream. Every record is validated first (well-formed, lines of at most 4 M
   * characters, every scope writable with {@code grants}, target scopes empty, no id used twice or
   * already in use, and every rule the engine keeps: version chains, one active entry per content and
   * per path in a scope, priority caps, topic stamps, actor and reason text, change sets and snapshots
   * within their scope); then each scope is written in one transaction. Nothing is written when any
   * record fails, or in dry-run mode.
   *
   * @throws InvalidInputException naming the line or id when the stream breaks a rule
   * @throws ScopeViolationException when a scope of the stream is not writable with {@code grants}
   */
  TransferReport importFrom(Grants grants, java.io.Reader in, ImportOptions options);

  // ---- curation ------------------------------------------------------------------------------

  /** Runs the reasoner's curate step over the dirty topics of the granted scopes. */
  CurateReport curate(Grants grants);

  /** Dirty (scope, topic) pairs across the whole store: the work list of curation workers. */
  List<DirtyTopic> listDirtyTopics(int limit);

  default List<DirtyTopic> listDirtyTopics() {
    return listDirtyTopics(1000);
  }

  /**
   * Closes the store. Every later call fails with a {@link StoreException} whose code is
   * {@link ErrorCode#STORE_CLOSED}; closing again does nothing.
   */
  @Override
  void close();
}

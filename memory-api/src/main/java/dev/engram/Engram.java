/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import dev.engram.spi.MemoryStore;
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
 *
 * <p>Errors, on every method: a null argument is a {@link NullPointerException}; a malformed argument
 * an {@link InvalidInputException} (or {@link InvalidGrantException}) naming it; anything the grants
 * cannot see a {@link NotFoundException}; a failing store a {@link StoreException}. A call that throws
 * changes nothing that is stored.
 */
public interface Engram extends AutoCloseable {

  /**
   * Starts configuring an engine.
   *
   * @return a new builder
   */
  static EngramBuilder builder() {
    return new EngramBuilder();
  }

  // ---- writing -------------------------------------------------------------------------------

  /**
   * {@link #write(Grants, String, WriteOptions)} with default options.
   *
   * @param grants what the caller may see and write
   * @param content the text to remember
   * @return the outcome and the entry as stored
   * @throws InvalidInputException if the content is empty, oversized or malformed
   * @throws ScopeViolationException if the target scope is not writable with {@code grants}
   */
  default WriteResult write(Grants grants, String content) {
    return write(grants, content, WriteOptions.defaults());
  }

  /**
   * Files content through the reasoner and commits it atomically. Canonically equal content already
   * active in the target scope is a no-op ({@code DEDUPED}); a write to an active {@code path} makes a
   * new version of that entry ({@code UPDATED}).
   *
   * @param grants what the caller may see and write
   * @param content the text to remember
   * @param options scope, topics, type, priority, path and the other optional fields
   * @return the outcome ({@code APPENDED}, {@code UPDATED} or {@code DEDUPED}) and the entry as stored
   * @throws InvalidInputException if the content or an option is malformed
   * @throws ScopeViolationException if the target scope is not writable with {@code grants}
   * @throws PriorityCapExceededException if the write would pass a priority cap
   * @throws RevisionConflictException if {@code expectedRevision} is not the scope's head
   * @throws ParentNotFoundException if the path is below the top level of a Lore domain and its parent
   *     path holds no active entry of the scope ({@link WriteOptions.Builder#path})
   * @throws ReasonerException if the reasoner fails or proposes something invalid
   */
  WriteResult write(Grants grants, String content, WriteOptions options);

  /**
   * Writes many items, each exactly as {@link #write(Grants, String, WriteOptions)} would (reasoner,
   * grants, write policy, priority caps, one active entry per path, canonical dedupe), with one store
   * transaction and one revision per target scope instead of one per item.
   *
   * <p>Atomicity is per scope: the items that go to one scope commit together in one transaction whose
   * revision's change set holds all of them, or not at all. An item that a single write would refuse
   * (bad input, a scope it may not write, a passed priority cap, an expected revision that is not the
   * scope's head before the batch, a reasoner failure) is rejected alone, with that error on its item,
   * and the other items of its scope are still written. A store failure rolls back that scope's
   * transaction: each of its items then carries the {@link StoreException}, and nothing of that scope
   * is stored; other scopes commit independently. Items are applied in request order, so an item whose
   * content an earlier item of the batch already stored in its scope is {@code DEDUPED} to it, and a
   * later write to the same path updates the earlier one. A {@code DEDUPED} item reports its scope's
   * revision after the batch.
   *
   * @param grants what the caller may see and write
   * @param requests the items, at most {@value #MAX_BATCH_WRITES}
   * @return one item per request, in request order
   * @throws InvalidInputException if there are more than {@value #MAX_BATCH_WRITES} requests
   * @throws NullPointerException if {@code requests} or one of its items is null
   */
  BatchWriteResult writeAll(Grants grants, List<WriteRequest> requests);

  /** The most requests one {@link #writeAll(Grants, List)} takes. */
  int MAX_BATCH_WRITES = 10_000;

  /**
   * {@link #correct(Grants, String, String, ChangeOptions)} without actor or reason.
   *
   * @param grants what the caller may see and write
   * @param entryId the entry to correct
   * @param content the corrected text
   * @return the new current version
   * @throws NotFoundException if the entry is not visible
   * @throws EntryStateException if the entry is not active
   */
  default MemoryEntry correct(Grants grants, String entryId, String content) {
    return correct(grants, entryId, content, ChangeOptions.defaults());
  }

  /**
   * Writes a new version of an active entry with new content; it inherits scope, topics, type and the
   * other fields, and the old version is superseded. Equal content is a no-op that returns the current
   * version.
   *
   * <p>By entry id the correction applies to whatever version is current when it commits: use it when
   * the new content stands on its own (an application fixing a fact it owns). When the new content was
   * decided from a version the caller read (an agent revising what recall showed it), correct by
   * {@linkplain #correct(Grants, Citation, String, ChangeOptions) citation} instead, so that a change
   * made in between is a conflict rather than silently overwritten.
   *
   * @param grants what the caller may see and write
   * @param entryId the entry to correct
   * @param content the corrected text
   * @param options actor, reason and expected revision
   * @return the new current version
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is not active
   * @throws RevisionConflictException if {@code expectedRevision} is not the scope's head
   */
  MemoryEntry correct(Grants grants, String entryId, String content, ChangeOptions options);

  /**
   * {@link #correct(Grants, Citation, String, ChangeOptions)} without options.
   *
   * @param grants what the caller may see and write
   * @param citation the version the correction was decided from
   * @param content the corrected text
   * @return the new current version
   * @throws RevisionConflictException when the cited version is no longer current
   */
  default MemoryEntry correct(Grants grants, Citation citation, String content) {
    return correct(grants, citation, content, ChangeOptions.defaults());
  }

  /**
   * Corrects exactly the cited version, like {@link #retire}: the citation must name the entry's
   * current version. A stale citation (the entry changed since it was read) is a
   * {@link RevisionConflictException}; read the current state and decide again.
   *
   * @param grants the caller's grants
   * @param citation the version the correction was decided from
   * @param content the new content
   * @param options expected revision, actor and reason
   * @return the new current version (or the cited one when the content is equal)
   * @throws RevisionConflictException when the cited version is no longer current
   * @throws NotFoundException when no visible version matches the citation
   */
  MemoryEntry correct(Grants grants, Citation citation, String content, ChangeOptions options);

  /**
   * {@link #retire(Grants, Citation, ChangeOptions)} with a reason.
   *
   * @param grants what the caller may see and write
   * @param citation the current version to retire
   * @param reason why, kept in the history
   * @return the retired version
   * @throws RevisionConflictException if the citation is not the current version
   */
  default MemoryEntry retire(Grants grants, Citation citation, String reason) {
    return retire(grants, citation, ChangeOptions.reason(reason));
  }

  /**
   * Deactivates the cited current version.
   *
   * @param grants what the caller may see and write
   * @param citation the current version to retire
   * @param options actor, reason and expected revision
   * @return the retired version
   * @throws NotFoundException if the cited version is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws RevisionConflictException if the citation is stale (not the current version)
   * @throws EntryStateException if the entry is already retired
   */
  MemoryEntry retire(Grants grants, Citation citation, ChangeOptions options);

  /**
   * {@link #reactivate(Grants, Citation, ChangeOptions)} with a reason.
   *
   * @param grants what the caller may see and write
   * @param citation the retired version to reactivate
   * @param reason why, kept in the history
   * @return the active version
   * @throws RevisionConflictException if the citation is not the current version
   */
  default MemoryEntry reactivate(Grants grants, Citation citation, String reason) {
    return reactivate(grants, citation, ChangeOptions.reason(reason));
  }

  /**
   * Makes the cited retired version active again.
   *
   * @param grants what the caller may see and write
   * @param citation the retired version to reactivate
   * @param options actor, reason and expected revision
   * @return the active version
   * @throws NotFoundException if the cited version is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws RevisionConflictException if the citation is stale
   * @throws EntryStateException if the entry is not retired
   */
  MemoryEntry reactivate(Grants grants, Citation citation, ChangeOptions options);

  /**
   * {@link #rollback(Grants, String, ChangeOptions)} without actor or reason.
   *
   * @param grants what the caller may see and write
   * @param eventId the event whose state to restore
   * @return the new current version
   * @throws NotFoundException if the event is not visible
   */
  default MemoryEntry rollback(Grants grants, String eventId) {
    return rollback(grants, eventId, ChangeOptions.defaults());
  }

  /**
   * Restores content, priority, disclosure and glossary from a create/update/rollback event as a new
   * version (and a new event). Nothing is edited in place: an entry merged away comes back as a new
   * version and its merged-away version stays as it was. A retired entry is refused with
   * {@link EntryStateException} (reactivate it first), and so is content another active entry holds.
   *
   * @param grants what the caller may see and write
   * @param eventId the event whose state to restore
   * @param options actor, reason and expected revision
   * @return the new current version
   * @throws NotFoundException if the event is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is retired, another active entry holds the content, or the
   *     event carries no state to restore
   * @throws RevisionConflictException if {@code expectedRevision} is not the scope's head
   */
  MemoryEntry rollback(Grants grants, String eventId, ChangeOptions options);

  /**
   * Erases an entry everywhere: versions, events, indexes.
   *
   * @param grants what the caller may see and write
   * @param entryId the entry to erase
   * @return the number of versions removed
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   */
  int deleteEntry(Grants grants, String entryId);

  /**
   * Erases one writable scope, and nothing below it: every entry, version, event, revision, topic,
   * captured source and vector of that scope.
   *
   * @param grants what the caller may see and write
   * @param scope the scope to erase
   * @return the number of entries removed
   * @throws ScopeViolationException if the scope is not writable with {@code grants}
   * @throws InvalidInputException if {@code scope} is not a valid namespace
   */
  default int deleteScope(Grants grants, String scope) {
    return deleteScope(grants, scope, DeleteScopeOptions.defaults());
  }

  /**
   * Erases a writable scope and, with {@link DeleteScopeOptions#withDescendants()}, every scope below
   * it. Every scope to erase must be writable with {@code grants}; when one is not, nothing is erased.
   *
   * @param grants what the caller may see and write
   * @param scope the scope to erase
   * @param options whether the scopes below it go too
   * @return the number of entries removed
   * @throws ScopeViolationException if a scope to erase is not writable with {@code grants}
   * @throws InvalidInputException if {@code scope} is not a valid namespace
   */
  int deleteScope(Grants grants, String scope, DeleteScopeOptions options);

  // ---- sources: what happened, and extraction into memories ---------------------------------

  /**
   * Captures one source record (see {@link #captureAll}).
   *
   * @param grants the caller's grants; the record goes to its scope or, without one, the first grant
   * @param record what happened
   * @return the stored record (the earlier one when the same record was already captured in the scope)
   * @throws SourceConflictException when the scope holds the record's id with other content
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
   * A record whose id is already captured in its scope with the same session, speaker, text and
   * metadata (and the same event time, when the record gives one) is a no-op: the stored record is
   * returned for it. A record that reuses a taken id (or one the batch names twice) with other content
   * is a {@link SourceConflictException} naming the id and scope, and the call stores nothing. Every
   * record is validated and checked for conflicts before anything is stored.
   *
   * @param grants the caller's grants
   * @param records at most 10,000 records
   * @return the stored records, one per record given, in the same order
   * @throws InvalidInputException naming the record and field when one is malformed
   * @throws SourceConflictException when a record reuses a taken id with other content
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

  /**
   * {@link #flush(Grants, FlushOptions)} with {@link FlushOptions#defaults()}.
   *
   * @param grants the caller's grants
   * @return what was processed, and the windows that failed
   * @throws StoreException when the store fails (the window in progress is not written)
   * @throws CapabilityNotSupportedException when the store does not declare {@code SOURCES} or the reasoner
   *     does not extract
   */
  default FlushReport flush(Grants grants) {
    return flush(grants, FlushOptions.defaults());
  }

  /**
   * Turns captured records into memories: per writable scope at or below the grants, the records after
   * the scope's cursor go to {@link dev.engram.spi.Reasoner#extract} in windows; its candidates are
   * validated as untrusted (evidence must be ids of that window), deduplicated canonically, and
   * committed in one transaction with the cursor advance. A failure leaves nothing of the window; a
   * flush never commits a window twice, also when several run at once. When the reasoner fails or a
   * candidate is invalid, nothing of that window is written, its scope stops there for this call (the
   * cursor stays before the window, so the next flush tries it again), the window is listed in
   * {@link FlushReport#failures()} with its error code and logged, and the other scopes are flushed.
   * Extraction is model output: a candidate that would create or change a boot node is refused by the
   * commit, listed in {@link FlushReport#rejected()} and logged, and the rest of its window commits.
   *
   * @param grants the caller's grants
   * @param options window size and bound
   * @return what was processed, and the windows that failed
   * @throws StoreException when the store fails (the window in progress is not written)
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

  /**
   * Active entries of one topic, with default options.
   *
   * @param grants what the caller may see
   * @param topic the topic
   * @return the entries, newest first
   * @throws InvalidInputException if the topic is malformed
   */
  default List<MemoryEntry> read(Grants grants, String topic) {
    return read(grants, List.of(topic), ReadOptions.defaults());
  }

  /**
   * Active entries of one topic.
   *
   * @param grants what the caller may see
   * @param topic the topic
   * @param options the limit
   * @return the entries, newest first
   * @throws InvalidInputException if the topic is malformed
   */
  default List<MemoryEntry> read(Grants grants, String topic, ReadOptions options) {
    return read(grants, List.of(topic), options);
  }

  /**
   * Active entries of several topics, with default options.
   *
   * @param grants what the caller may see
   * @param topics the topics
   * @return the entries, newest first, each once
   * @throws InvalidInputException if a topic is malformed
   */
  default List<MemoryEntry> read(Grants grants, List<String> topics) {
    return read(grants, topics, ReadOptions.defaults());
  }

  /**
   * Active entries of the topics in visible scopes, newest first, each once, at most {@code limit} per
   * topic.
   *
   * @param grants what the caller may see
   * @param topics the topics
   * @param options the limit per topic
   * @return the entries, newest first, each once
   * @throws InvalidInputException if a topic is malformed
   */
  List<MemoryEntry> read(Grants grants, List<String> topics, ReadOptions options);

  /**
   * Topic summaries of every visible scope, ordered by scope then topic.
   *
   * @param grants what the caller may see
   * @return one summary per (scope, topic)
   * @throws StoreException when the store fails
   */
  List<TopicSummary> scan(Grants grants);

  /**
   * The active entries of every visible scope, in audit order.
   *
   * @param grants what the caller may see
   * @return the entries, ordered by scope, creating revision, then version
   */
  default List<MemoryEntry> list(Grants grants) {
    return list(grants, ListOptions.defaults());
  }

  /**
   * The deterministic audit read: ordered by scope, creating revision, then version.
   *
   * @param grants what the caller may see
   * @param options which statuses, scopes and how many
   * @return the versions, in audit order
   * @throws NotFoundException when {@code options} names a scope the grants cannot see
   * @throws InvalidInputException when {@code options} names a malformed scope or topic
   */
  List<MemoryEntry> list(Grants grants, ListOptions options);

  /**
   * Any version, current or historical, by exact citation.
   *
   * @param grants what the caller may see
   * @param citation the version
   * @return the cited version
   * @throws NotFoundException if it does not exist or is not visible
   */
  MemoryEntry get(Grants grants, Citation citation);

  /**
   * The current version of an entry (whatever its status).
   *
   * @param grants what the caller may see
   * @param entryId the entry
   * @return its current version
   * @throws NotFoundException if it does not exist or is not visible
   */
  MemoryEntry get(Grants grants, String entryId);

  /**
   * Every event of an entry, oldest first, with before/after snapshots, actor and reason. This reads the
   * whole history at once, so its time and memory grow with the number of changes; for an entry that may
   * have a long history use the paged {@link #history(Grants, String, HistoryOptions)}.
   *
   * @param grants what the caller may see
   * @param entryId the entry
   * @return its events, oldest first
   * @throws NotFoundException if it does not exist or is not visible
   */
  List<MemoryEvent> history(Grants grants, String entryId);

  /**
   * One page of the events of an entry, oldest first. Unlike {@link #history(Grants, String)}, which
   * reads the whole history at once, a page costs the same at any depth of a long version chain;
   * follow {@link HistoryPage#nextCursor()} for the next one.
   *
   * @param grants what the caller may see
   * @param entryId the entry
   * @param options the page size and where the page starts
   * @return the page
   * @throws NotFoundException if the entry does not exist or is not visible
   * @throws InvalidInputException if the cursor was not handed out by a history page
   */
  HistoryPage history(Grants grants, String entryId, HistoryOptions options);

  /**
   * The current revision of a visible scope.
   *
   * @param grants what the caller may see
   * @param scope the scope
   * @return its head revision, 0 if nothing was committed there
   * @throws NotFoundException if the scope is not visible
   */
  long revision(Grants grants, String scope);

  /**
   * Revisions of a visible scope after {@code sinceRevision}, oldest first.
   *
   * @param grants what the caller may see
   * @param scope the scope
   * @param sinceRevision the last revision the caller has seen (0 for all)
   * @return the later revisions with their change sets
   * @throws NotFoundException if the scope is not visible
   * @throws InvalidInputException if {@code sinceRevision} is negative
   */
  List<Revision> changes(Grants grants, String scope, long sinceRevision);

  // ---- search and context ---------------------------------------------------------------------

  /**
   * Finds active entries in the visible scopes. Superseded and retired versions are never ranked.
   * Only {@code AUTO} falls back (to full text), and says so in {@link SearchResult}.
   *
   * @param grants what the caller may see
   * @param request the query, mode, filters and limit
   * @return the hits, best first, with the mode that ran
   * @throws CapabilityNotSupportedException if an explicit {@code VECTOR} or {@code HYBRID} search
   *     cannot run (it names what is missing)
   * @throws InvalidInputException if the query is malformed
   */
  SearchResult search(Grants grants, SearchRequest request);

  /**
   * An {@code AUTO} search with default settings.
   *
   * @param grants what the caller may see
   * @param query what to look for
   * @return the hits, best first, with the mode that ran
   * @throws InvalidInputException if the query is malformed
   */
  default SearchResult search(Grants grants, String query) {
    return search(grants, SearchRequest.of(query));
  }

  /**
   * A bounded, cited context for a model: candidates from an {@code AUTO} search, deduplicated, each
   * capped, the whole within {@code maxBytes} UTF-8 bytes, labelled as untrusted history.
   *
   * @param grants what the caller may see
   * @param request the task and the byte budget
   * @return the rendered context with its citations
   * @throws InvalidInputException if the request is malformed
   */
  PreparedContext prepareContext(Grants grants, ContextRequest request);

  // ---- experience and the review inbox ------------------------------------------------------

  /**
   * Experience: lessons learned from task outcomes, recorded by trusted code or incubated by the reasoner
   * for review.
   *
   * @return the experience operations of this engine
   */
  Experiences experience();

  /**
   * The review inbox: model-made changes waiting for a person (new experience always; curation ops and
   * extracted memories when {@link EngramBuilder#review} turns review on for them).
   *
   * @return the review operations of this engine
   */
  ReviewInbox review();

  // ---- curation ------------------------------------------------------------------------------

  /**
   * Runs the reasoner's curate step over the dirty topics of the granted scopes. The report's
   * {@code runId} names the run for {@link #undoCuration}; {@code topicsRemaining} says whether dirty
   * topics remain beyond the per-call cap.
   *
   * @param grants what the caller may see and write
   * @return the topics curated and the operations applied and rejected
   * @throws ReasonerException if the reasoner fails
   */
  CurateReport curate(Grants grants);

  /**
   * Reverts every change of a curation run as new versions (history keeps both the run and its
   * undo): rewritten and merged entries get their earlier content and metadata back, retired ones are
   * reactivated, summaries the run created are retired. Refused with a
   * {@link CurationRunConflictException} unless the run is the most recent curation in its scopes and
   * nothing it touched changed since (writes to other entries in between are fine; a write into the
   * same scope while the run was committing makes it not undoable). Each scope is undone in one commit.
   *
   * @param grants grants that can write every scope of the run
   * @param runId the {@link CurateReport#runId()} of the run
   * @return the versions the undo made current
   * @throws CurationRunConflictException when the run is not the most recent or was overtaken
   * @throws InvalidInputException when {@code runId} is not a run id
   */
  List<MemoryEntry> undoCuration(Grants grants, String runId);

  // ---- paths and domains ---------------------------------------------------------------------

  /**
   * The domains in use: the schemes of the paths of active entries ({@code core},
   * {@code preferences}, {@code project}, …) with their entry counts, over the visible scopes,
   * ordered by domain. Entries without a path, or with a path without {@code domain://}, are in none.
   *
   * @param grants the caller's grants
   * @return the domains, ordered by name
   * @throws StoreException when the store fails
   */
  List<DomainSummary> domains(Grants grants);

  /**
   * The direct children of a path prefix among the active entries of the visible scopes: the
   * entries whose path is the prefix plus one segment, and the sub-prefixes (ending in {@code /})
   * with the number of entries below them. Content is never returned.
   *
   * @param grants the caller's grants
   * @param prefix a domain root ({@code project://}) or a path prefix ({@code project://checkout_api/},
   *     the trailing slash optional)
   * @return the children ordered by path (an entry before a sub-prefix of the same name)
   * @throws InvalidInputException when the prefix is not a path
   */
  List<PathNode> browse(Grants grants, String prefix);

  // ---- manifests -----------------------------------------------------------------------------

  /**
   * The manifest of a visible scope at a revision, replayed from its revision log: each entry with
   * the exact version current at that revision, its content hash, and whether it was active. At the
   * head it lists the same entries and versions as {@code list} with superseded versions included.
   *
   * @param grants the caller's grants
   * @param scope a visible scope
   * @param revision between 0 and the scope's head
   * @return the manifest, items ordered by entry id
   * @throws InvalidInputException when the revision is outside 0..head
   */
  Manifest manifest(Grants grants, String scope, long revision);

  // ---- edits that keep the content ------------------------------------------------------------

  /**
   * Moves an active entry to another path, with its subtree: every active entry of the scope whose
   * path lies below the entry's ({@code project://billing/invoices} below {@code project://billing})
   * moves to the same place below {@code newPath}. All of it is one commit (one revision): each moved
   * entry gets a new version with a MOVE event, and the old paths are free afterwards. The move is
   * checked whole before anything is written, and any conflict refuses all of it. MOVE events stay in
   * history and cannot be rolled back to (nor can an erasure be undone); a later rollback to an
   * earlier event restores content and metadata but keeps the path.
   *
   * @param grants the caller's grants
   * @param entryId the entry to move
   * @param newPath the new path; the entry's current path is a no-op
   * @return the entry's current version
   * @throws PathConflictException when an active entry of the scope outside the moved subtree holds
   *     {@code newPath} or the new path of one of the entries below it; the exception names that path
   * @throws BootNodeException when the entry is a boot node or {@code newPath} (or a new path below it)
   *     is a boot node's address
   * @throws InvalidInputException when a new path below {@code newPath} would exceed the path limit, or
   *     {@code newPath} breaks the path rule (lowercase snake_case segments in the Lore domains, see
   *     {@link WriteOptions.Builder#path})
   * @throws ParentNotFoundException when {@code newPath} is below the top level of a Lore domain and no
   *     active entry of the scope that stays in place holds its parent path (moving a node below itself
   *     leaves no parent)
   */
  default MemoryEntry move(Grants grants, String entryId, String newPath) {
    return move(grants, entryId, newPath, ChangeOptions.defaults());
  }

  /**
   * {@link #move(Grants, String, String)} with options.
   *
   * @param grants the caller's grants
   * @param entryId the entry to move
   * @param newPath the new path
   * @param options expected revision, actor and reason
   * @return the entry's current version
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is not active
   * @throws PathConflictException when an active entry outside the moved subtree holds a new path
   * @throws BootNodeException when the entry is a boot node or a new path is a boot node's address
   * @throws RevisionConflictException if {@code expectedRevision} is not the scope's head
   * @throws InvalidInputException when {@code newPath} is not a path, or a new path would exceed the path
   *     limit
   * @throws ParentNotFoundException when {@code newPath} needs a parent that no active entry staying in
   *     place holds
   */
  MemoryEntry move(Grants grants, String entryId, String newPath, ChangeOptions options);

  /**
   * Changes an active entry's metadata without rewriting its content: each field the patch sets
   * (priority, disclosure, glossary, topics) replaces the current value, the others are kept. The
   * result is a new version with an UPDATE event whose before/after are the exact versions; a patch
   * that changes nothing is {@code DEDUPED}. The disclosure check reports on the result's warnings.
   *
   * @param grants the caller's grants
   * @param entryId the entry
   * @param patch the fields to change, at least one
   * @return the outcome, the entry's current version and any warnings
   * @throws InvalidInputException when the patch sets nothing or a field is invalid
   */
  default WriteResult update(Grants grants, String entryId, EntryPatch patch) {
    return update(grants, entryId, patch, ChangeOptions.defaults());
  }

  /**
   * {@link #update(Grants, String, EntryPatch)} with options.
   *
   * @param grants the caller's grants
   * @param entryId the entry
   * @param patch the fields to change
   * @param options expected revision, actor and reason
   * @return the outcome, the entry's current version and any warnings
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is not active
   * @throws RevisionConflictException if {@code expectedRevision} is not the scope's head
   * @throws InvalidInputException when the patch sets nothing or a field is invalid
   * @throws PriorityCapExceededException when the new priority's cap is reached in the scope
   */
  WriteResult update(Grants grants, String entryId, EntryPatch patch, ChangeOptions options);

  /**
   * Adds glossary terms to an active entry (terms it already carries, compared case-insensitively,
   * are skipped) as a new version with an UPDATE event; nothing new is a no-op.
   *
   * @param grants the caller's grants
   * @param entryId the entry
   * @param terms the terms to add, at least one
   * @return the entry's current version
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is not active
   * @throws InvalidInputException when {@code terms} is empty, a term is invalid, or the glossary would
   *     exceed its limit of terms
   */
  MemoryEntry glossaryAdd(Grants grants, String entryId, List<String> terms);

  /**
   * {@link #glossaryAdd(Grants, String, List)} with options. The engine implements it; an
   * implementation of this interface that does not override it runs a call whose options set nothing
   * as {@code glossaryAdd(grants, entryId, terms)} and refuses any other with a
   * {@link CapabilityNotSupportedException}.
   *
   * @param grants the caller's grants
   * @param entryId the entry
   * @param terms the terms to add, at least one
   * @param options expected revision, actor and reason
   * @return the entry's current version
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is not active
   * @throws RevisionConflictException if {@code expectedRevision} is not the scope's head
   * @throws InvalidInputException when {@code terms} is empty, a term is invalid, or the glossary would
   *     exceed its limit of terms
   * @throws CapabilityNotSupportedException when the implementation does not take options
   */
  default MemoryEntry glossaryAdd(Grants grants, String entryId, List<String> terms, ChangeOptions options) {
    if (ChangeOptions.defaults().equals(java.util.Objects.requireNonNull(options, "options"))) {
      return glossaryAdd(grants, entryId, terms);
    }
    throw new CapabilityNotSupportedException(getClass().getName() + " does not take options for glossaryAdd");
  }

  /**
   * Removes glossary terms (compared case-insensitively) from an active entry as a new version with
   * an UPDATE event; terms it does not carry change nothing.
   *
   * @param grants the caller's grants
   * @param entryId the entry
   * @param terms the terms to remove, at least one
   * @return the entry's current version
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is not active
   * @throws InvalidInputException when {@code terms} is empty or a term is invalid
   */
  MemoryEntry glossaryRemove(Grants grants, String entryId, List<String> terms);

  /**
   * {@link #glossaryRemove(Grants, String, List)} with options. The engine implements it; an
   * implementation of this interface that does not override it runs a call whose options set nothing
   * as {@code glossaryRemove(grants, entryId, terms)} and refuses any other with a
   * {@link CapabilityNotSupportedException}.
   *
   * @param grants the caller's grants
   * @param entryId the entry
   * @param terms the terms to remove, at least one
   * @param options expected revision, actor and reason
   * @return the entry's current version
   * @throws NotFoundException if the entry is not visible
   * @throws ScopeViolationException if its scope is not writable with {@code grants}
   * @throws EntryStateException if the entry is not active
   * @throws RevisionConflictException if {@code expectedRevision} is not the scope's head
   * @throws InvalidInputException when {@code terms} is empty or a term is invalid
   * @throws CapabilityNotSupportedException when the implementation does not take options
   */
  default MemoryEntry glossaryRemove(Grants grants, String entryId, List<String> terms, ChangeOptions options) {
    if (ChangeOptions.defaults().equals(java.util.Objects.requireNonNull(options, "options"))) {
      return glossaryRemove(grants, entryId, terms);
    }
    throw new CapabilityNotSupportedException(getClass().getName() + " does not take options for glossaryRemove");
  }

  // ---- views ---------------------------------------------------------------------------------

  /**
   * The operator view of this engine: whole-store maintenance and bulk transfer (reindex, vector cache
   * statistics, export and import, the store-wide dirty-topic work list), kept apart from the tenant
   * operations above. Application code that serves a tenant needs only {@code Engram}; operator
   * tools (the CLI, the console, curation workers) use this view. The view shares this engine's store
   * and lifecycle; calls on it fail like any call once the engine is closed.
   *
   * @return the operator view, the same object on every call
   */
  EngramOperator operator();

  // ---- boot ----------------------------------------------------------------------------------

  /**
   * The boot block for one runtime: the fixed boot nodes that exist in the visible scopes
   * ({@code core://agent}, {@code core://soul}, {@code preferences://user}, and
   * {@code core://agent/<runtime>} for this runtime only) with content, plus the five most
   * recently written other active memories by path, priority and disclosure, without content.
   *
   * <p>Boot nodes are written like any path (a write to {@code core://agent} creates or edits it) and
   * can be corrected, patched and rolled back, but never retired, deleted or moved (a
   * {@link BootNodeException} names the node); no model-made change reaches them (curation never sees
   * them, and the commit refuses a curation op or an extraction candidate that would create or change
   * one), and search and
   * {@code prepareContext} never return them. Erasing a whole scope ({@code deleteScope}) still
   * erases them.
   *
   * @param grants the caller's grants
   * @param runtime the id of the agent runtime asking (such as {@code claudecode}; see
   *     {@link BootBlock#bootPath(String)})
   * @return the boot block
   * @throws InvalidInputException when {@code runtime} is not a runtime id
   */
  BootBlock boot(Grants grants, String runtime);

  /**
   * Closes the engine: every later call fails with a {@link StoreException} whose code is
   * {@link ErrorCode#STORE_CLOSED}; closing again does nothing. The store is closed with it when it was
   * handed over with {@link EngramBuilder#store(MemoryStore)} and left open for its owner when it was
   * borrowed ({@link EngramBuilder#borrowedStore(MemoryStore)}). Reasoners and embedders are never
   * closed here. The {@link MaintenanceRunner}s started from {@link EngramOperator#startMaintenance} are
   * closed first (schedulers handed to them stay open for their owners).
   */
  @Override
  void close();
}

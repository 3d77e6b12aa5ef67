/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

/**
 * The operator view of an {@link Engram} ({@link Engram#operator()}): the work an operator or a
 * maintenance job does over a whole store or whole scopes, apart from the tenant operations an
 * application calls per request. Calls that act on scopes still take grants (an operator tool is
 * trusted code that mints them); the store-wide calls ({@link #listDirtyTopics(int)},
 * {@link #vectorCacheStats()}) take none and return no content.
 *
 * <p>Thread-safe, like the engine it views.
 */
public interface EngramOperator {
  /**
   * Embeds every active version in the visible scopes that has no vector for the current embedder
   * profile (after a profile change, after write-time embedding failed, or after an import), and the
   * retrieval keys of every active version whose keys have no vectors under it.
   *
   * @param grants what the caller may see and write
   * @return the number of versions embedded (a version whose content and keys were both embedded counts twice)
   * @throws CapabilityNotSupportedException if no embedder is configured or the store keeps no vectors
   */
  int reindex(Grants grants);

  /**
   * Counters of this engine's vector block cache: how often searches found a scope's vectors current,
   * brought them up to date from the revisions written since, or read them whole from the store, and
   * how much the cache holds against its bound ({@link EngramBuilder#vectorCacheBytes(long)}).
   *
   * @return a snapshot of the counters
   */
  VectorCacheStats vectorCacheStats();

  /**
   * Writes everything in the scopes visible to {@code grants} as JSON Lines: every version of every
   * entry, every event, the revision log, the topic bookkeeping and (on stores with sources) the captured
   * source records with their positions and the extraction cursor. Lossless: importing the result into
   * an empty store gives identical {@code list(includeSuperseded)}, {@code history}, {@code scan},
   * {@code sources} and cursors, so a flush after the import extracts only what was pending before it.
   * Each scope is read inside one store transaction on it, so it is written at one revision even while
   * writes continue (they wait for that scope meanwhile); an export taken under traffic imports.
   *
   * @param grants what the caller may see
   * @param out where the lines go; flushed, not closed
   * @return what was exported
   * @throws java.io.UncheckedIOException if writing fails
   */
  TransferReport export(Grants grants, java.io.Writer out);

  /**
   * Reads an {@link #export(Grants, java.io.Writer)} stream. Every record is validated first (well-formed, lines of at most 4 M
   * characters, every scope writable with {@code grants}, target scopes empty, no id used twice or
   * already in use, and every rule the engine keeps: version chains, one active entry per content and
   * per path in a scope, priority caps, topic stamps, actor and reason text, change sets and snapshots
   * within their scope; captured sources as capture would have stored them: well-formed ids unique in
   * their scope, text and metadata within their limits, positions unique and within the scope's last
   * position, the cursor within it); then each scope is written in one transaction. Nothing is written
   * when any record fails, or in dry-run mode. Exports of format 1 (made before sources were exported)
   * import as they are.
   *
   * <p><b>Restore.</b> With {@link ImportOptions#replace()} ({@link ImportMode#REPLACE}) the target scopes
   * need not be empty: ids the store holds in the scope being replaced are not collisions (ids held in
   * any other scope still are), and each scope of the export is replaced in one store transaction that
   * erases everything of it as {@link Engram#deleteScope} erases it, its revision log and head included
   * ({@link dev.engram.spi.StoreTransaction#eraseScope}), then writes the export. Afterwards the scope is
   * exactly what was exported, revisions included (they restart from the export's, so a reader following
   * {@code changes} past the restored head reads again from 0); what was written after the export is
   * gone. A refused file changes nothing; a store failure leaves the scope it hit as it was (scopes of the
   * file replaced before it stay replaced); scopes the file does not carry are never touched.
   * {@link TransferReport#replaced()} counts the active entries replaced. Vectors are not part of an
   * export: {@link #reindex} afterwards.
   *
   * <p><b>No merge.</b> There is deliberately no mode that merges an export into a scope that holds
   * memory. A scope's history is one chain of gap-free revisions whose change sets and citations name
   * versions by id; merging two would renumber one side's revisions, breaking every citation of it, and
   * would have to choose silently between two active entries at one path or with one content, which the
   * engine never holds at once. Import into an empty scope and write what should carry over with
   * {@link Engram#write}, where dedupe and the reasoner apply.
   *
   * @param grants what the caller may write
   * @param in the export; read to the end, not closed
   * @param options the mode (into empty scopes, or replacing them) and dry run or not
   * @return what was (or, in a dry run, would be) imported
   * @throws InvalidInputException naming the line or id when the stream breaks a rule
   * @throws ScopeViolationException when a scope of the stream is not writable with {@code grants}
   * @throws CapabilityNotSupportedException when the stream carries captured sources and the store does
   *     not declare {@code SOURCES}, or a restore is asked of a store without {@code REPLACE_SCOPE}
   *     (nothing is written)
   * @throws StoreException when the store fails while writing; the scope it was writing is as it was
   * @throws java.io.UncheckedIOException if reading fails
   */
  TransferReport importFrom(Grants grants, java.io.Reader in, ImportOptions options);

  /**
   * Dirty (scope, topic) pairs across the whole store: the work list of curation workers.
   *
   * @param limit the most pairs returned
   * @return dirty topics, at most {@code limit}
   * @throws InvalidInputException if {@code limit} is not between 1 and 100,000
   */
  List<DirtyTopic> listDirtyTopics(int limit);

  /**
   * Up to 1,000 dirty (scope, topic) pairs across the whole store.
   *
   * @return dirty topics
   */
  default List<DirtyTopic> listDirtyTopics() {
    return listDirtyTopics(1000);
  }

  /**
   * Starts scheduled maintenance (see {@link MaintenanceRunner}): every
   * {@linkplain MaintenanceOptions#interval() interval}, the dirty topics of the scopes each of
   * {@code grants} may write are curated and their captured sources flushed, claimed first on stores that
   * declare {@link dev.engram.spi.StoreCapability#WORK_CLAIMS}. The engine owns the runner: closing the engine
   * closes it. A reasoner without a curate step, a store without sources or a reasoner that does not extract
   * turns the task off; that is logged once here.
   *
   * @param grants the grants to maintain, each worked on as {@code curate(grants)} and {@code flush(grants)}
   *     would be (at least one)
   * @param options interval, tasks, claims, scheduler and listener
   * @return the started runner
   * @throws NullPointerException when an argument or a grant is null
   * @throws InvalidInputException when {@code grants} is empty
   * @throws InvalidGrantException when a grant is malformed or protected
   * @throws StoreException ({@code STORE_CLOSED}) when the engine is closed
   * @throws java.util.concurrent.RejectedExecutionException when the given scheduler refuses the task
   * @throws CapabilityNotSupportedException from a view that does not implement it (the engine's does)
   */
  default MaintenanceRunner startMaintenance(List<Grants> grants, MaintenanceOptions options) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " runs no scheduled maintenance");
  }

  /**
   * {@link #startMaintenance(List, MaintenanceOptions)} for one grants with {@link MaintenanceOptions#defaults()}.
   *
   * @param grants the grants to maintain
   * @return the started runner
   */
  default MaintenanceRunner startMaintenance(Grants grants) {
    return startMaintenance(List.of(grants), MaintenanceOptions.defaults());
  }

  /**
   * What the language model behind the reasoner cost, per tenant: for each scope of the grants (and,
   * unless the query says otherwise, each scope below them), each day (UTC), provider, model and
   * reasoner job, the model calls made by the operations on that scope, the input and output tokens the
   * server reported, and the calls that failed. A write's tag call counts for the scope the write was
   * filed in (a write that failed counts for its first granted namespace); a flush, curation or
   * incubation counts for the scope of each window or slice. The counters are kept by stores declaring
   * {@code MODEL_USAGE}, erased with their scope ({@link Engram#deleteScope}), and not part of an
   * {@link #export export} (they describe what this store's operations cost, not what memory holds).
   *
   * @param grants the scopes to report on
   * @param query the days and whether the scopes below the grants are included
   * @return the rows, ordered by scope, day, provider, model and job
   * @throws CapabilityNotSupportedException if the store keeps no model usage
   * @throws NullPointerException if an argument is null
   */
  default List<ModelUsageRow> modelUsage(Grants grants, ModelUsageQuery query) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " reports no model usage");
  }
}

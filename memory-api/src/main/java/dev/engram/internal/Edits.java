package dev.engram.internal;

import dev.engram.ChangeKind;
import dev.engram.ChangeOptions;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.MemoryEntry;
import dev.engram.PathConflictException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Edits that keep an entry's content: move to another path, and (with {@link #successor}) the
 * metadata edits. Each is one commit making a new version with its own event; the old version stays
 * in history. Grants, ids and options arrive validated and authorized by the facade.
 */
final class Edits {
  private final SearchService search;
  private final Commits commits;

  Edits(SearchService search, Commits commits) {
    this.search = search;
    this.commits = commits;
  }

  /**
   * A new version of {@code cur} made in {@code c}, with every field as given (the path too); the
   * content is {@code cur}'s.
   */
  static MemoryEntry successor(Commit c, MemoryEntry cur, List<String> topics, int priority,
      @Nullable String disclosure, List<String> glossary, @Nullable String path, @Nullable String source) {
    return new MemoryEntry(cur.entryId(), Ids.next(), cur.version() + 1, cur.versionId(), cur.scope(), cur.content(),
        topics, cur.type(), priority, disclosure, glossary, path, source, cur.evidence(), cur.contentHash(),
        EntryStatus.ACTIVE, null, cur.createdAt(), c.now(), c.revision());
  }

  /**
   * Moves the active entry to {@code path} as a new version with a MOVE event; its old path is free
   * afterwards. The same path is a no-op; a path held by another active entry of the scope is a
   * {@link PathConflictException}.
   */
  MemoryEntry move(MemoryEntry cur, String path, ChangeOptions opts) {
    Embeddings.PendingVectors pending = search.pendingFor(cur.content(), cur.disclosure(), cur.glossary(), path);
    return commits.run(cur.scope(), pending == null ? List.of() : List.of(pending), c -> {
      c.expect(opts.expectedRevision());
      MemoryEntry now = Entries.requireCurrent(c.reader(), cur.entryId());
      Entries.requireActive(now, "be moved");
      BootNodes.requireMovable(now);
      if (path.equals(now.path())) {
        return now;
      }
      BootNodes.requireNotBootPath(path);
      MemoryEntry holder = c.reader().findActiveByPath(now.scope(), path).orElse(null);
      if (holder != null) {
        throw new PathConflictException(now.scope(), path, holder.entryId());
      }
      MemoryEntry next = successor(c, now, now.topics(), now.priority(), now.disclosure(), now.glossary(), path,
          opts.source());
      String reason = opts.reason() != null ? opts.reason()
          : "move from " + (now.path() == null ? "no path" : now.path()) + " to " + path;
      return c.replace(now, next, EventKind.MOVE, ChangeKind.MOVE, opts.source(), reason);
    });
  }
}

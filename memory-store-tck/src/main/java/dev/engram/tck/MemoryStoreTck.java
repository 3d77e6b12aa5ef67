/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.spi.MemoryStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;

/**
 * The whole store contract: what a store implementation can break. A store's test class extends this and
 * implements {@link #createStore()} and {@link #storedRows} (what a store holds beneath the SPI, for the
 * erasure layer), and {@link #openAgain} when its storage can be opened twice (for the migrations layer).
 * Each layer runs as a nested class against fresh stores:
 *
 * <ul>
 *   <li>the store SPI driven directly, without the engine (its optional parts by declared capability);
 *   <li>the facade over the store: CRUD, versions and history, topic rows and dirty tracking, paths,
 *       manifests, moves, metadata edits, citations, boot nodes, curation undo, origins, batch writes,
 *       export and import between stores, restore (an export replacing a scope), Lore addressing;
 *   <li>isolation (every read path, and a randomized property), hostile-looking text as data;
 *   <li>erasure (beneath the SPI too), concurrency, the commit path's invariants;
 *   <li>search and full-text parity (one analysis, the same hit sets), vectors, retrieval keys, sources;
 *   <li>experience and the review inbox;
 *   <li>work claims (leases across claimers, scopes, the maintenance runner over them);
 *   <li>model usage per scope and day;
 *   <li>migrations (a second opening of the storage).
 * </ul>
 *
 * <p>The engine's own rules (grant policy, what a reasoner's answers may do, context rendering, time
 * references, input validation) do not depend on the store and are tested once, against the reference
 * store, in memory-store-inmemory's tests ({@code dev.engram.engine}).
 */
public abstract class MemoryStoreTck {

  /**
   * A new, empty store. Called once or more per test.
   *
   * @return the store
   */
  protected abstract MemoryStore createStore();

  /**
   * What {@code store} (made by {@link #createStore()}) holds at rest, read beneath the SPI: the erasure
   * layer checks that no row of any table still mentions erased content.
   *
   * @param store a store made by {@link #createStore()}
   * @return its rows at rest
   */
  protected abstract StoredRows storedRows(MemoryStore store);

  /**
   * A second store over the storage of {@code store} (made by {@link #createStore()} and still open): the
   * same file, the same schema. The migrations layer opens it to check that migrations run again over a
   * current schema change nothing. The default, for stores without storage of their own, is null, and the
   * layer is skipped.
   *
   * @param store an open store of this test
   * @return a second store over its storage, or null
   */
  protected @Nullable MemoryStore openAgain(MemoryStore store) {
    return null;
  }

  @Nested
  class StoreSpi extends StoreSpiContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Crud extends CrudContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Transfer extends TransferContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Isolation extends IsolationContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Versions extends VersionsContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Topics extends TopicsContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Erasure extends ErasureContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }

    @Override
    protected StoredRows storedRows(MemoryStore store) {
      return MemoryStoreTck.this.storedRows(store);
    }
  }

  @Nested
  class RetrievalKeys extends RetrievalKeysContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Experiences extends ExperienceContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }

    @Override
    protected StoredRows storedRows(MemoryStore store) {
      return MemoryStoreTck.this.storedRows(store);
    }
  }

  @Nested
  class Review extends ReviewContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }

    @Override
    protected StoredRows storedRows(MemoryStore store) {
      return MemoryStoreTck.this.storedRows(store);
    }
  }

  @Nested
  class ModelUsage extends ModelUsageContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }

    @Override
    protected StoredRows storedRows(MemoryStore store) {
      return MemoryStoreTck.this.storedRows(store);
    }
  }

  @Nested
  class HostileText extends HostileTextContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Concurrency extends ConcurrencyContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Commit extends CommitContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Search extends SearchContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Vectors extends VectorsContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class TextParity extends TextParityContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Paths extends PathsContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class LoreAddressing extends LoreAddressingContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Restore extends RestoreContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Manifests extends ManifestContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Move extends MoveContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Metadata extends MetadataContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Citations extends CitationContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Boot extends BootContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class UndoCuration extends UndoCurationContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Origins extends OriginContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Sources extends SourcesContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class WorkClaims extends WorkClaimsContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }

  @Nested
  class Migrations extends ReopenContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }

    @Override
    protected @Nullable MemoryStore openAgain(MemoryStore store) {
      return MemoryStoreTck.this.openAgain(store);
    }
  }

  @Nested
  class BatchWrites extends BatchWriteContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }
}

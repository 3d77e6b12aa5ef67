/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.spi.MemoryStore;
import org.junit.jupiter.api.Nested;

/**
 * The whole contract. A store's test class extends this and implements {@link #createStore()} and
 * {@link #storedRows} (what a store holds beneath the SPI, for the erasure layer); each
 * layer below runs as a nested class, in the order store SPI (driven directly, without the engine; its
 * optional parts run by declared capability) → CRUD → grants and isolation → versions, history,
 * rollback, revisions → topics and dirty tracking → erasure → retrieval keys → experience and the review
 * inbox → bad input → concurrency → the commit
 * path's invariants (policy narrowing, caps, canonical dedupe, closed engines, curation bounds).
 */
public abstract class MemoryStoreTck {

  /** A new, empty store. */
  protected abstract MemoryStore createStore();

  /**
   * What {@code store} (made by {@link #createStore()}) holds at rest, read beneath the SPI: the erasure
   * layer checks that no row of any table still mentions erased content.
   */
  protected abstract StoredRows storedRows(MemoryStore store);

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
  class GrantsAndIsolation extends GrantsContract {
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
  class BadInput extends BadInputContract {
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
  class Disclosure extends DisclosureContract {
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
  class BatchWrites extends BatchWriteContract {
    @Override
    protected MemoryStore createStore() {
      return MemoryStoreTck.this.createStore();
    }
  }
}

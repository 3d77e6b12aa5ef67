/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Engram;
import dev.engram.Grants;
import java.util.function.Consumer;
import org.junit.jupiter.api.Nested;
import org.springframework.ai.test.vectorstore.BaseVectorStoreTests;
import org.springframework.ai.vectorstore.VectorStore;

/** Spring AI's own vector store suite against {@link EngramVectorStore} on every store. */
class EngramVectorStoreBaseTests {

  abstract static class OnStore extends BaseVectorStoreTests {
    abstract TestStores.Kind kind();

    @Override
    protected void executeTest(Consumer<VectorStore> testFunction) {
      try (Engram engram = TestStores.engram(kind())) {
        testFunction.accept(EngramVectorStore.builder(engram, Grants.of("app/docs")).build());
      }
    }
  }

  @Nested
  class InMemory extends OnStore {
    @Override
    TestStores.Kind kind() {
      return TestStores.Kind.MEMORY;
    }
  }

  @Nested
  class Sqlite extends OnStore {
    @Override
    TestStores.Kind kind() {
      return TestStores.Kind.SQLITE;
    }
  }

  @Nested
  class Postgres extends OnStore {
    @Override
    TestStores.Kind kind() {
      return TestStores.Kind.POSTGRES;
    }
  }
}

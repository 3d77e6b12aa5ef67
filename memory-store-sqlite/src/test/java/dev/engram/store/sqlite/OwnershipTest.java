/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.StoreException;
import dev.engram.reasoner.DeterministicReasoner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Engram#close()} closes what the engine was handed to own and nothing else; the store closes the
 * pools it created and never a {@code DataSource} it was given.
 */
class OwnershipTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @TempDir Path dir;

  @Test
  void aStoreHandedToTheEngineIsClosedWithIt() {
    SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("owned.db"));
    Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build();
    engram.write(U1, "Prefers tea.");
    engram.close();
    engram.close();
    assertThatThrownBy(() -> store.headRevision("app/user/u1"))
        .isInstanceOf(StoreException.class).hasMessageContaining("closed");
    assertThatThrownBy(() -> engram.list(U1))
        .isInstanceOf(StoreException.class).extracting(e -> ((StoreException) e).code()).isEqualTo(ErrorCode.STORE_CLOSED);
  }

  @Test
  void aBorrowedStoreOutlivesTheEngine() {
    try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("borrowed.db"))) {
      Engram first = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build();
      first.write(U1, "Prefers tea.");
      first.close();
      assertThatThrownBy(() -> first.list(U1)).isInstanceOf(StoreException.class);
      assertThat(store.headRevision("app/user/u1")).isEqualTo(1);
      try (Engram second = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
        second.write(U1, "Prefers window seats.");
        assertThat(second.list(U1)).hasSize(2);
      }
      assertThat(store.headRevision("app/user/u1")).isEqualTo(2);
    }
  }

  @Test
  void aStoreOnTheApplicationsPoolLeavesThePoolOpen() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("pool.db"));
    config.setMaximumPoolSize(4);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      Engram engram = Engram.builder().store(new SqliteMemoryStore(pool)).reasoner(new DeterministicReasoner()).build();
      engram.write(U1, "Prefers tea.");
      engram.close();
      assertThat(pool.isClosed()).isFalse();
      try (SqliteMemoryStore again = new SqliteMemoryStore(pool)) {
        assertThat(again.headRevision("app/user/u1")).isEqualTo(1);
      }
    }
  }

  @Test
  void theStoreCanBeSetOnlyOnce() {
    try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("once.db"))) {
      assertThatThrownBy(() -> Engram.builder().store(store).borrowedStore(store))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("store");
    }
  }
}

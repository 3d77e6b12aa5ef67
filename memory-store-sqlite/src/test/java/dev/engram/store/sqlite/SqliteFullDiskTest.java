/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.StoreException;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full database (SQLITE_FULL) fails the one write that did not fit with a typed error, loses no
 * acknowledged write, and leaves the open store writing again as soon as there is room: the file is
 * capped with {@code PRAGMA max_page_count} on the writer connection, which is what a full disk looks
 * like to SQLite, and the cap is then lifted.
 */
class SqliteFullDiskTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @TempDir Path dir;

  /** Runs one pragma on the writer connection (inside an empty transaction) and returns its first column. */
  private static long writerPragma(SqliteMemoryStore store, String pragma) {
    return store.inTransaction("app/user/u1", tx -> {
      try (Statement st = ((SqliteTransaction) tx).session().connection().createStatement();
          ResultSet rs = st.executeQuery(pragma)) {
        return rs.next() ? rs.getLong(1) : -1L;
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  private static String bulky(int i) {
    StringBuilder b = new StringBuilder("Note ").append(i).append(':');
    for (int w = 0; w < 400; w++) {
      b.append(' ').append(Integer.toString(i * 7919 + w * 104729, 36));
    }
    return b.toString();
  }

  @Test
  void afterTheDatabaseFilledUpTheOpenStoreWritesAgainOnceThereIsRoom() {
    Path db = dir.resolve("full.db");
    List<MemoryEntry> acknowledged = new ArrayList<>();
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      acknowledged.add(engram.write(U1, "Written before the disk filled up.", WriteOptions.defaults()).entry());
      long pages = writerPragma(store, "PRAGMA page_count");
      writerPragma(store, "PRAGMA max_page_count = " + (pages + 8));
      StoreException full = null;
      for (int i = 0; i < 200 && full == null; i++) {
        try {
          acknowledged.add(engram.write(U1, bulky(i), WriteOptions.defaults()).entry());
        } catch (StoreException e) {
          full = e;
        }
      }
      assertThat(full).as("a write eventually finds the database full").isNotNull();
      assertThat(full.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
      assertThat(full.getMessage()).containsIgnoringCase("full");
      assertThat(engram.list(U1)).containsExactlyInAnyOrderElementsOf(acknowledged);

      writerPragma(store, "PRAGMA max_page_count = 1073741823");
      for (int i = 0; i < 5; i++) {
        acknowledged.add(engram.write(U1, "Written after room came back, number " + i, WriteOptions.defaults())
            .entry());
      }
      assertThat(engram.list(U1)).containsExactlyInAnyOrderElementsOf(acknowledged);
    }
    try (SqliteMemoryStore reopened = new SqliteMemoryStore(db);
        Engram engram = Engram.builder().store(reopened).reasoner(new DeterministicReasoner()).build()) {
      assertThat(engram.list(U1)).containsExactlyInAnyOrderElementsOf(acknowledged);
      assertThat(engram.revision(U1, "app/user/u1")).isEqualTo(acknowledged.size());
    }
  }
}

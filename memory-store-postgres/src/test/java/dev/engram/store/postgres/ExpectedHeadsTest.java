/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which head a transaction may expect: known, not shared with a running one, not right after failures. */
class ExpectedHeadsTest {

  /** The head the next transaction on {@code scope} expects (null: none), the transaction then ended. */
  private static Long next(ExpectedHeads heads, String scope) {
    Long expected = heads.begin(scope);
    heads.end(scope);
    return expected;
  }

  @Test
  void aHeadIsExpectedOnceRecordedAndOnlyByOneRunningTransaction() {
    ExpectedHeads heads = new ExpectedHeads();
    assertThat(heads.begin("a")).isNull();
    heads.record("a", 4);
    heads.end("a");
    assertThat(heads.begin("a")).isEqualTo(4);
    assertThat(heads.begin("a")).as("a second transaction while the first runs").isNull();
    heads.end("a");
    heads.end("a");
    assertThat(next(heads, "a")).isEqualTo(4);
    heads.begin("a");
    heads.forget("a");
    heads.end("a");
    assertThat(next(heads, "a")).isNull();
  }

  @Test
  void failuresInARowDoubleTheOrdinaryRunUpToTheBoundAndASuccessResetsIt() {
    ExpectedHeads heads = new ExpectedHeads();
    heads.begin("a");
    heads.record("a", 1);
    heads.end("a");
    List<Integer> ordinaryRuns = new ArrayList<>();
    assertThat(next(heads, "a")).isEqualTo(1);
    for (int failure = 0; failure < 9; failure++) {
      // the transaction that just expected the head found it moved
      heads.failed("a");
      int ordinary = 0;
      while (next(heads, "a") == null) {
        ordinary++;
      }
      ordinaryRuns.add(ordinary);
    }
    assertThat(ordinaryRuns).containsExactly(1, 2, 4, 8, 16, 32, 64, 64, 64);
    heads.held("a");
    heads.failed("a");
    assertThat(next(heads, "a")).isNull();
    assertThat(next(heads, "a")).isEqualTo(1);
  }

  @Test
  void atMostTheBoundOfIdleScopesIsRemembered() {
    ExpectedHeads heads = new ExpectedHeads();
    heads.begin("busy");
    for (int i = 0; i <= ExpectedHeads.MAX_SCOPES + 10; i++) {
      heads.begin("s" + i);
      heads.record("s" + i, i);
      heads.end("s" + i);
    }
    assertThat(next(heads, "s0")).as("the least recently used idle scope is forgotten").isNull();
    assertThat(next(heads, "s" + (ExpectedHeads.MAX_SCOPES + 10))).isEqualTo(ExpectedHeads.MAX_SCOPES + 10);
    heads.record("busy", 7);
    heads.end("busy");
    assertThat(next(heads, "busy")).as("a running transaction's scope is kept").isEqualTo(7);
  }
}

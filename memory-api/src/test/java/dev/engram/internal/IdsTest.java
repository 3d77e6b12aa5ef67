/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class IdsTest {
  @Test
  void idsAreVersion7UuidsThatSortByCreation() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      ids.add(Ids.next());
    }
    assertThat(new HashSet<>(ids)).hasSize(ids.size());
    assertThat(ids).isSorted();
    UUID u = UUID.fromString(ids.get(0));
    assertThat(u.version()).isEqualTo(7);
    assertThat(u.variant()).isEqualTo(2);
    assertThat(ids.get(0)).hasSize(36).isLowerCase();
  }
}

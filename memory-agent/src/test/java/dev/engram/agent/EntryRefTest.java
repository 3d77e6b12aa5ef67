/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EntryRefTest {
  @Test
  void refsRoundTripAndRejectEveryAlteration() {
    Random random = new Random(7);
    for (int i = 0; i < 500; i++) {
      String id = i % 2 == 0 ? UUID.randomUUID().toString() : "imported_" + Long.toHexString(random.nextLong());
      int version = 1 + random.nextInt(i % 3 == 0 ? 5 : Integer.MAX_VALUE - 1);
      String ref = new EntryRef(id, version).encode();
      assertThat(ref).startsWith("m").hasSizeLessThanOrEqualTo(EntryRef.MAX_LENGTH).matches("[A-Za-z0-9_-]+");
      assertThat(EntryRef.decode(ref)).isEqualTo(new EntryRef(id, version));
      char[] chars = ref.toCharArray();
      int at = 1 + random.nextInt(chars.length - 1);
      chars[at] = chars[at] == 'x' ? 'y' : 'x';
      EntryRef altered = EntryRef.decode(new String(chars));
      assertThat(altered).as(ref + " altered at " + at).isNotEqualTo(new EntryRef(id, version));
    }
    assertThat(EntryRef.decode("")).isNull();
    assertThat(EntryRef.decode("m")).isNull();
    assertThat(EntryRef.decode("mAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).isNull();
    assertThat(EntryRef.decode("app/user/a#id")).isNull();
    assertThat(EntryRef.decode("m" + "A".repeat(200))).isNull();
  }
}

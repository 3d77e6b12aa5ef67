/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FullTextQueryTest {
  private static final Instant FROM = Instant.parse("2024-01-08T00:00:00Z");
  private static final Instant TO = Instant.parse("2024-01-15T00:00:00Z");

  @Test
  void withoutBoundsEveryEventTimeAndNoneMatch() {
    FullTextQuery q = new FullTextQuery(List.of("a"), Set.of(), Set.of());
    assertThat(q.filtersOccurredAt()).isFalse();
    assertThat(q.occurredIn(null)).isTrue();
    assertThat(q.occurredIn(Instant.MIN)).isTrue();
    assertThat(q).isEqualTo(new FullTextQuery(List.of("a"), Set.of(), Set.of(), null, null));
  }

  @Test
  void theIntervalIsHalfOpenToTheNanosecondAndExcludesVersionsWithoutEventTime() {
    FullTextQuery q = new FullTextQuery(List.of("a"), Set.of(), Set.of()).occurredBetween(FROM, TO);
    assertThat(q.filtersOccurredAt()).isTrue();
    assertThat(q.occurredIn(FROM)).isTrue();
    assertThat(q.occurredIn(TO.minusNanos(1))).isTrue();
    assertThat(q.occurredIn(FROM.minusNanos(1))).isFalse();
    assertThat(q.occurredIn(TO)).isFalse();
    assertThat(q.occurredIn(null)).isFalse();
    FullTextQuery fromOnly = q.occurredBetween(FROM, null);
    assertThat(fromOnly.occurredIn(Instant.MAX)).isTrue();
    assertThat(fromOnly.occurredIn(null)).isFalse();
    FullTextQuery toOnly = q.occurredBetween(null, TO);
    assertThat(toOnly.occurredIn(Instant.MIN)).isTrue();
    assertThat(toOnly.occurredIn(TO)).isFalse();
    assertThat(toOnly.occurredIn(null)).isFalse();
  }

  @Test
  void anEmptyOrReversedIntervalIsRefused() {
    FullTextQuery q = new FullTextQuery(List.of("a"), Set.of(), Set.of());
    assertThatThrownBy(() -> q.occurredBetween(TO, FROM)).isInstanceOf(dev.engram.InvalidInputException.class)
        .hasMessageContaining("occurredTo").hasMessageContaining("must be after occurredFrom");
    assertThatThrownBy(() -> q.occurredBetween(FROM, FROM)).isInstanceOf(dev.engram.InvalidInputException.class);
  }
}

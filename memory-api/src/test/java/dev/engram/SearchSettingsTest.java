/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SearchSettingsTest {

  @Test
  void defaultsAreScoreFusionWithTheProfileFloor() {
    SearchSettings d = SearchSettings.defaults();
    assertThat(d.fusion()).isEqualTo(SearchSettings.Fusion.SCORE);
    assertThat(d.vectorFloor()).isEmpty();
    assertThat(d.vectorFloorOr(0.42)).isEqualTo(0.42);
    assertThat(d.ftsWeight()).isEqualTo(1.25);
    assertThat(d.vectorWeight()).isEqualTo(1.0);
    assertThat(d.rrfK()).isEqualTo(60);
    assertThat(d.channelDepth()).isEqualTo(200);
    assertThat(d.embedTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(d.termCoverage()).isZero();
    assertThat(d.recencyBoost()).isZero();
    assertThat(d.recencyHalfLife()).isEqualTo(Duration.ofDays(180));
    assertThat(SearchSettings.builder().build()).isEqualTo(d).hasSameHashCodeAs(d);
  }

  @Test
  void buildersAndWithersChangeOneSettingEach() {
    SearchSettings s = SearchSettings.builder().fusion(SearchSettings.Fusion.RECIPROCAL_RANK).rrfK(10)
        .ftsWeight(2).vectorWeight(0.5).vectorFloor(0.2).priorityBonus(0).channelDepth(50)
        .embedTimeout(Duration.ofMillis(300)).build();
    assertThat(s.fusion()).isEqualTo(SearchSettings.Fusion.RECIPROCAL_RANK);
    assertThat(s.rrfK()).isEqualTo(10);
    assertThat(s.ftsWeight()).isEqualTo(2);
    assertThat(s.vectorWeight()).isEqualTo(0.5);
    assertThat(s.vectorFloor()).hasValue(0.2);
    assertThat(s.vectorFloorOr(0.9)).isEqualTo(0.2);
    assertThat(s.priorityBonus()).isZero();
    assertThat(s.channelDepth()).isEqualTo(50);
    assertThat(s.embedTimeout()).isEqualTo(Duration.ofMillis(300));
    assertThat(s.toBuilder().profileVectorFloor().build().vectorFloor()).isEmpty();
    assertThat(s.toBuilder().vectorFloor(0.5).build().vectorFloor()).hasValue(0.5);
    assertThat(s.toBuilder().ftsWeight(1).vectorWeight(1).build().ftsWeight()).isEqualTo(1);
    assertThat(s.toBuilder().rrfK(60).build().rrfK()).isEqualTo(60);
    assertThat(s.toBuilder().fusion(SearchSettings.Fusion.SCORE).build().fusion()).isEqualTo(SearchSettings.Fusion.SCORE);
    assertThat(s.toBuilder().channelDepth(300).build().channelDepth()).isEqualTo(300);
    assertThat(s.toBuilder().embedTimeout(Duration.ofSeconds(5)).build().embedTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(s.toBuilder().termCoverage(0.5).build().termCoverage()).isEqualTo(0.5);
    SearchSettings recent = s.toBuilder().recencyBoost(0.04, Duration.ofDays(30)).build();
    assertThat(recent.recencyBoost()).isEqualTo(0.04);
    assertThat(recent.recencyHalfLife()).isEqualTo(Duration.ofDays(30));
    assertThat(recent).isNotEqualTo(s);
    assertThat(recent.toBuilder().build()).isEqualTo(recent).hasSameHashCodeAs(recent);
    assertThat(s.toBuilder().build()).isEqualTo(s);
    assertThat(s).isNotEqualTo(SearchSettings.defaults());
    assertThat(s.toString()).contains("RECIPROCAL_RANK", "rrfK=10");
  }

  @Test
  void badValuesFailFastNamingTheSetting() {
    SearchSettings.Builder b = SearchSettings.builder();
    assertField(() -> b.vectorFloor(1.5), "vectorFloor");
    assertField(() -> b.vectorFloor(Double.NaN), "vectorFloor");
    assertField(() -> b.rrfK(0), "rrfK");
    assertField(() -> b.ftsWeight(-1), "ftsWeight");
    assertField(() -> b.vectorWeight(Double.POSITIVE_INFINITY), "vectorWeight");
    assertField(() -> b.priorityBonus(0.01), "priorityBonus");
    assertField(() -> b.embedTimeout(Duration.ZERO), "embedTimeout");
    assertField(() -> b.channelDepth(5), "channelDepth");
    assertField(() -> SearchSettings.builder().ftsWeight(0).vectorWeight(0).build(), "ftsWeight");
    assertField(() -> b.termCoverage(1.01), "termCoverage");
    assertField(() -> b.termCoverage(Double.NaN), "termCoverage");
    assertField(() -> b.recencyBoost(-0.1, Duration.ofDays(1)), "recencyBoost");
    assertField(() -> b.recencyBoost(0.04, Duration.ZERO), "recencyHalfLife");
    assertField(() -> b.recencyBoost(0.04, Duration.ofDays(-1)), "recencyHalfLife");
    assertThatThrownBy(() -> b.recencyBoost(0.04, null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> b.fusion(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("fusion");
    assertThatThrownBy(() -> b.embedTimeout(null)).isInstanceOf(NullPointerException.class);
    // nothing was changed by the failed calls
    assertThat(b.build()).isEqualTo(SearchSettings.defaults());
  }

  private static void assertField(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
    assertThatThrownBy(call).isInstanceOfSatisfying(InvalidInputException.class,
        e -> assertThat(e.field()).isEqualTo(field));
  }
}

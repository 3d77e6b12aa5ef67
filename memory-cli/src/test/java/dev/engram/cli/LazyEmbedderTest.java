/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.spi.EmbedderSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class LazyEmbedderTest {

  @Test
  void namesTheProfileWithoutLoadingAndLoadsOnTheFirstText() {
    LazyEmbedder e5 = (LazyEmbedder) LazyEmbedder.of(EmbedderSpec.parse("e5").provider().orElseThrow());
    assertThat(e5.profile()).isEqualTo(new E5SmallEmbedder().profile());
    assertThat(e5.loaded()).isFalse();

    float[] query = e5.embedQueries(List.of("where is my bike?")).get(0);
    assertThat(e5.loaded()).isTrue();
    assertThat(query).containsExactly(new E5SmallEmbedder().embedQueries(List.of("where is my bike?")).get(0), within(1e-6f));
    assertThat(e5.embed(List.of("where is my bike?")).get(0)).as("stored texts get the passage prefix").isNotEqualTo(query);
  }

  @Test
  void miniLmHasItsOwnProfile() {
    LazyEmbedder minilm = (LazyEmbedder) LazyEmbedder.of(EmbedderSpec.parse("minilm").provider().orElseThrow());
    assertThat(minilm.profile()).isEqualTo(new MiniLmEmbedder().profile());
    assertThat(minilm.loaded()).isFalse();
  }
}

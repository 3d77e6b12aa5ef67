/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.e5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.embeddings.onnx.OnnxEncoder;
import dev.engram.spi.EmbeddingProfile;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class E5SmallEmbedderTest {

  private static E5SmallEmbedder embedder;

  @BeforeAll
  static void load() {
    embedder = new E5SmallEmbedder();
  }

  @Test
  void profileIsE5With384Dimensions() {
    assertThat(embedder.profile()).isEqualTo(new EmbeddingProfile("e5-small-v2-q", 384, 0.7));
    assertThat(embedder.profile().id()).isEqualTo("e5-small-v2-q@384");
    assertThat(embedder).hasToString("E5SmallEmbedder[e5-small-v2-q@384]");
  }

  @Test
  void storedTextsAndQueriesAreUnitVectorsOf384FiniteValues() {
    List<float[]> vectors = embedder.embed(List.of("The user is vegetarian.", "Lives in Berlin."));
    vectors = List.of(vectors.get(0), vectors.get(1), embedder.embedQueries(List.of("what does the user eat?")).get(0));
    for (float[] v : vectors) {
      assertThat(v).hasSize(384);
      double sum = 0;
      for (float x : v) {
        assertThat(Float.isFinite(x)).isTrue();
        sum += x * x;
      }
      assertThat(Math.sqrt(sum)).isCloseTo(1.0, within(1e-5));
    }
  }

  @Test
  void passagesAndQueriesGetTheirOwnPrefix() {
    String text = "Prefers metric units.";
    float[] passage = embedder.embed(List.of(text)).get(0);
    float[] query = embedder.embedQueries(List.of(text)).get(0);

    // the same text as passage and as query gives different vectors: a prefix was applied to each
    assertThat(passage).isNotEqualTo(query);
    // and the prefix is the embedder's business: a caller-written prefix gives the same vector
    OnnxEncoder raw = new OnnxEncoder("e5", E5SmallV2QuantizedEmbeddingModel.class, E5SmallEmbedder.MODEL_ID, 384,
        Runnable::run);
    assertThat(raw.embed(List.of("passage: " + text), "").get(0)).containsExactly(passage, within(1e-6f));
    assertThat(raw.embed(List.of("query: " + text), "").get(0)).containsExactly(query, within(1e-6f));
  }

  @Test
  void aQueryIsCloserToItsAnswerThanToAnUnrelatedPassage() {
    List<float[]> passages = embedder.embed(List.of("The user's cat is called Miso.", "Quarterly tax filing deadline is in April."));
    float[] q = embedder.embedQueries(List.of("what is the name of my pet?")).get(0);

    assertThat(dot(q, passages.get(0))).isGreaterThan(dot(q, passages.get(1)) + 0.02);
  }

  @Test
  void anExecutorEmbedsTheTextsOfACallInParallelToTheSameVectors() throws Exception {
    List<String> texts = List.of("The user is vegetarian.", "Lives in Berlin.", "Plays the cello.");
    List<float[]> expected = embedder.embed(texts);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<float[]> parallel = new E5SmallEmbedder(pool).embed(texts);
      for (int i = 0; i < texts.size(); i++) {
        assertThat(parallel.get(i)).containsExactly(expected.get(i), within(1e-6f));
      }
    } finally {
      pool.shutdownNow();
    }
    assertThatThrownBy(() -> new E5SmallEmbedder(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void blankOrNullTextsAreRefusedWithTheirIndex() {
    assertThatThrownBy(() -> embedder.embed(List.of("ok", " ")))
        .isInstanceOf(dev.engram.InvalidInputException.class)
        .hasMessageContaining("texts: [1] is blank");
    assertThatThrownBy(() -> embedder.embedQueries(java.util.Arrays.asList("ok", null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("texts[1]");
    assertThat(embedder.embedQueries(List.of())).isEmpty();
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}

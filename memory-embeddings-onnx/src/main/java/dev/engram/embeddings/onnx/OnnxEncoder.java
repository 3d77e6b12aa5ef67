/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ErrorCode;
import dev.engram.InvalidInputException;
import dev.engram.MemoryException;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One BERT-style bi-encoder model shipped inside a jar (as LangChain4j's embeddings jars ship theirs:
 * {@code NAME.onnx} with its tokenizer {@code NAME-tokenizer.json}), run in process by ONNX Runtime with
 * mean pooling, and the checks every offline embedder applies to its output: one vector per text, of the
 * model's dimension, finite, not all zeros, returned at unit length. The {@code E5SmallEmbedder} of
 * {@code memory-embeddings-e5} and the {@code MiniLmEmbedder} of {@code memory-embeddings-minilm} are
 * built on it; it is an {@link dev.engram.spi.Embedder}'s engine, not an embedder itself.
 *
 * <p><b>Loading.</b> The constructor loads the model, so a missing native library or a broken jar fails
 * at wiring time. Each model is loaded once per class loader and shared by every encoder of it; several
 * models can live in one JVM (they share the ONNX Runtime environment). The session's worker threads
 * sleep when idle instead of spinning.
 *
 * <p><b>Threads.</b> Instances are thread-safe. The texts of one {@link #embed} call are encoded on the
 * {@link Executor} given to the constructor ({@code Runnable::run}: one after another on the calling
 * thread), and the call waits for all of them.
 */
public final class OnnxEncoder {

  private static final Map<String, OnnxBertBiEncoder> LOADED = new ConcurrentHashMap<>();
  private static final Logger LOG = LoggerFactory.getLogger(OnnxEncoder.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The tokenizer's own limit when its definition names none: BERT-style models take 512 word pieces. */
  private static final int MAX_WORD_PIECES = 512;

  private final String displayName;
  private final int dimension;
  private final EmbeddingModel model;

  /**
   * Loads (or reuses) the model {@code resource}{@code .onnx} with its tokenizer {@code
   * resource}{@code -tokenizer.json} from the class loader of {@code anchor}.
   *
   * @param displayName the model's name in error messages, e.g. {@code "e5-small-v2"}
   * @param anchor a class of the jar that holds the model
   * @param resource the model's resource name without extension, e.g. {@code "e5-small-v2-q"}
   * @param dimension the length of the model's vectors
   * @param executor where the texts of one call are encoded
   * @throws NullPointerException if an argument is null
   * @throws InvalidInputException if {@code dimension} is not positive
   * @throws MemoryException with {@link ErrorCode#REASONER_FAILED} if the model cannot be loaded
   */
  public OnnxEncoder(String displayName, Class<?> anchor, String resource, int dimension, Executor executor) {
    this.displayName = Objects.requireNonNull(displayName, "displayName");
    Objects.requireNonNull(anchor, "anchor");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(executor, "executor");
    if (dimension < 1) {
      throw new InvalidInputException("dimension", "must be positive, was " + dimension);
    }
    this.dimension = dimension;
    OnnxBertBiEncoder encoder;
    try {
      encoder = LOADED.computeIfAbsent(resource, r -> load(anchor, r));
    } catch (RuntimeException | LinkageError e) {
      throw new MemoryException(ErrorCode.REASONER_FAILED, displayName + " could not be loaded: " + e, e);
    }
    this.model = new Model(executor, encoder, dimension);
  }

  /**
   * Loads in an ONNX Runtime session whose worker threads sleep when idle: by default they spin for a
   * while after each inference, which on a small or shared machine takes the CPU from whatever runs
   * next (a search, typically).
   */
  private static OnnxBertBiEncoder load(Class<?> anchor, String resource) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    ClassLoader jar = anchor.getClassLoader();
    // the tokenizer's native library is found through the context class loader
    thread.setContextClassLoader(jar);
    try (InputStream model = jar.getResourceAsStream(resource + ".onnx");
        InputStream tokenizer = jar.getResourceAsStream(resource + "-tokenizer.json")) {
      if (model == null || tokenizer == null) {
        throw new IllegalStateException(resource + ".onnx or its tokenizer is not on the class path");
      }
      quietGpuProbe(jar);
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.addConfigEntry("session.intra_op.allow_spinning", "0");
      // the CPU execution provider, named rather than left to the build's default list
      options.addCPU(true);
      return new OnnxBertBiEncoder(env, env.createSession(model.readAllBytes(), options),
          new ByteArrayInputStream(withLengthLimit(tokenizer.readAllBytes())), PoolingMode.MEAN);
    } catch (OrtException | IOException e) {
      throw new IllegalStateException(e.toString(), e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /**
   * Keeps the tokenizer's GPU probe quiet. To pick the flavour of its native library, DJL counts GPUs when it
   * first loads the tokenizer; on a machine with a CUDA runtime but no GPU driver that count fails and DJL logs
   * two WARN lines, although nothing here uses a GPU: the model runs on ONNX Runtime's CPU provider and the
   * tokenizer's library is the same either way. DJL turns that logging off in the probe it forks; the same
   * switch is turned off here, before the first load. When a DJL release no longer has it, the lines come
   * back and this is noted at DEBUG.
   */
  private static void quietGpuProbe(ClassLoader jar) {
    try {
      Class<?> cuda = Class.forName("ai.djl.util.cuda.CudaUtils", true, jar);
      Field logging = cuda.getDeclaredField("logging");
      logging.setAccessible(true);
      logging.setBoolean(null, false);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.debug("The tokenizer's GPU probe may log WARN lines: its logging switch is not there ({})", e.toString());
    }
  }

  /**
   * The tokenizer definition with an explicit length limit where it has none. Without one, DJL's tokenizer
   * falls back to the model's 512 word pieces and logs a WARN line saying so; naming the same limit, with the
   * same truncation it applies by default, changes nothing but the line.
   */
  static byte[] withLengthLimit(byte[] tokenizer) throws IOException {
    JsonNode root = JSON.readTree(tokenizer);
    if (!(root instanceof ObjectNode definition) || !definition.path("truncation").isNull()) {
      return tokenizer;
    }
    ObjectNode truncation = definition.putObject("truncation");
    truncation.put("direction", "Right");
    truncation.put("max_length", MAX_WORD_PIECES);
    truncation.put("strategy", "LongestFirst");
    truncation.put("stride", 0);
    return JSON.writeValueAsBytes(definition);
  }

  /** The shared encoder, with one embedder's executor for the texts of one call. */
  private static final class Model extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder encoder;
    private final int dimension;

    Model(Executor executor, OnnxBertBiEncoder encoder, int dimension) {
      super(executor);
      this.encoder = encoder;
      this.dimension = dimension;
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return encoder;
    }

    @Override
    protected Integer knownDimension() {
      return dimension;
    }
  }

  /**
   * One unit vector per text, in order; each text is checked, then {@code prefix} is put before it (an
   * empty prefix for models trained without one). Texts longer than the model's window (510 word pieces)
   * are split into windows whose vectors are averaged, weighted by length.
   *
   * @param texts the texts, each non-blank
   * @param prefix what the model expects before each text, e.g. {@code "passage: "}
   * @return an unmodifiable list of one unit vector per text
   * @throws NullPointerException if {@code texts}, one of its elements or {@code prefix} is null
   * @throws dev.engram.InvalidInputException if a text is blank
   * @throws MemoryException with {@link ErrorCode#REASONER_FAILED} if the model fails, with {@link
   *     ErrorCode#INVALID_MODEL_OUTPUT} if it returns something other than a vector of the model's
   *     dimension per text
   */
  public List<float[]> embed(List<String> texts, String prefix) {
    Objects.requireNonNull(texts, "texts");
    Objects.requireNonNull(prefix, "prefix");
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
      segments.add(TextSegment.from(prefix + text));
    }
    List<Embedding> embeddings;
    try {
      embeddings = model.embedAll(segments).content();
    } catch (RuntimeException e) {
      throw new MemoryException(
          ErrorCode.REASONER_FAILED, displayName + " failed to embed " + texts.size() + " text(s): " + e, e);
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

  private float[] unitVector(Embedding embedding, int index) {
    float[] raw = embedding.vector();
    if (raw.length != dimension) {
      throw invalidOutput("vector " + index + " has " + raw.length + " values, expected " + dimension);
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

  private MemoryException invalidOutput(String message) {
    return new MemoryException(ErrorCode.INVALID_MODEL_OUTPUT, displayName + " output rejected: " + message);
  }
}

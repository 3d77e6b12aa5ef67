/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.observation;

import dev.engram.Engram;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Objects;

/**
 * Observations of Engram through Micrometer's Observation API: wrap the engine (one observation per
 * operation), and the embedder and reasoner it is built with (one per embedding call and per reasoner
 * job), and the store (one per transaction). The application's {@link ObservationRegistry} decides what they become (timers, traces, logs);
 * with {@link ObservationRegistry#NOOP} every call goes straight through.
 *
 * <pre>{@code
 * MemoryStore store = EngramObservation.observe(SqliteMemoryStore.open(path), registry);
 * Engram engram = EngramObservation.observe(Engram.builder()
 *     .store(store)
 *     .reasoner(EngramObservation.observe(reasoner, registry))
 *     .embedder(EngramObservation.observe(embedder, registry))
 *     .build(), store, registry);
 * }</pre>
 *
 * <p>Low-cardinality key values only name what was done and how it ended — never content, a
 * namespace, an id or a query: {@value #OPERATION_KEY} (the method, e.g. {@code write},
 * {@code operator.reindex}), {@value #STORE} (the store's kind, e.g. {@code sqlite}), {@value #OUTCOME}
 * ({@code success}, the lowercase {@link dev.engram.ErrorCode} of a typed failure, or {@code error}),
 * {@value #SEARCH_MODE} (the mode a search ran in, {@code search} only) and {@value #CONTEXT_STATUS}
 * ({@code ready} or {@code empty}, {@code prepareContext} only). The caller's correlation id (given
 * with {@link #withCorrelation}, or found in the SLF4J MDC under {@value #CORRELATION_MDC_KEY}) is
 * added as the high-cardinality key value {@value #CORRELATION}, for traces; Engram's own log lines
 * on the caller's thread carry it through the MDC.
 */
public final class EngramObservation {
  /** The observation of one operation of the engine or its operator view. */
  public static final String OPERATION = "engram.operation";
  /** The observation of one call of the embedder. */
  public static final String EMBEDDING = "engram.embedding";
  /** The observation of one job of the reasoner. */
  public static final String REASONER = "engram.reasoner";
  /** The observation of one transaction of the store ({@code inTransaction}). */
  public static final String TRANSACTION = "engram.store.transaction";
  /** Key: the store call a {@value #TRANSACTION} observation times ({@code inTransaction}). */
  public static final String STORE_CALL = "engram.store.call";
  /** Key: {@code true} for a transaction the work of another opened (a nested unit), else {@code false}. */
  public static final String NESTED = "engram.store.nested";
  /** Key: the provider of the model a reasoner job called ({@code openai}, {@code anthropic}, …). */
  public static final String MODEL_PROVIDER = "engram.model.provider";
  /** Key: the model a reasoner job called ({@code gpt-4o-mini}, …). */
  public static final String MODEL = "engram.model";
  /** Key: the operation ({@code write}, {@code search}, {@code operator.export}, …). */
  public static final String OPERATION_KEY = "engram.operation";
  /** Key: the embedder call ({@code embed}, {@code embedQueries}). */
  public static final String EMBEDDING_KEY = "engram.embedding";
  /** Key: the reasoner job ({@code tag}, {@code curate}, {@code extract}, {@code incubate}, {@code views}). */
  public static final String JOB = "engram.reasoner.job";
  /** Key: the store's kind. */
  public static final String STORE = "engram.store";
  /** Key: the embedder's profile id ({@code e5-small-v2-q@384}, …). */
  public static final String PROFILE = "engram.embedding.profile";
  /** Key: the reasoner's kind ({@code deterministic}, {@code llm}, …). */
  public static final String REASONER_KIND = "engram.reasoner";
  /** Key: how the call ended. */
  public static final String OUTCOME = "engram.outcome";
  /** Key: the search mode used. */
  public static final String SEARCH_MODE = "engram.search.mode";
  /** Key: the status of a prepared context. */
  public static final String CONTEXT_STATUS = "engram.context.status";
  /** High-cardinality key: the caller's correlation id. */
  public static final String CORRELATION = "engram.correlation";
  /** The SLF4J MDC key a caller puts its correlation id under. */
  public static final String CORRELATION_MDC_KEY = "engram.correlation";

  private static final ThreadLocal<String> CORRELATION_ID = new ThreadLocal<>();
  private static final int MAX_CORRELATION_CHARS = 128;

  private EngramObservation() {}

  /**
   * Runs {@code call} with {@code correlationId} as the caller's correlation id: every observation
   * the call makes on this thread carries it (high-cardinality {@value #CORRELATION}), and it is in
   * the SLF4J MDC under {@value #CORRELATION_MDC_KEY} meanwhile, so Engram's log lines carry it with
   * a binding that supports the MDC. The previous id (and MDC value) is restored afterwards.
   *
   * @param <T> what the call returns
   * @param correlationId the caller's id: 1 to 128 characters, no control characters
   * @param call the work, typically one or more Engram calls
   * @return what {@code call} returned
   * @throws dev.engram.InvalidInputException when {@code correlationId} is blank, too long or holds a
   *     control character
   * @throws NullPointerException if an argument is null
   */
  public static <T> T withCorrelation(String correlationId, java.util.function.Supplier<T> call) {
    Objects.requireNonNull(correlationId, "correlationId");
    Objects.requireNonNull(call, "call");
    if (correlationId.isBlank() || correlationId.length() > MAX_CORRELATION_CHARS
        || correlationId.chars().anyMatch(Character::isISOControl)) {
      throw new dev.engram.InvalidInputException("correlationId",
          "must be 1 to " + MAX_CORRELATION_CHARS + " characters without control characters");
    }
    String before = CORRELATION_ID.get();
    String mdcBefore = org.slf4j.MDC.get(CORRELATION_MDC_KEY);
    CORRELATION_ID.set(correlationId);
    org.slf4j.MDC.put(CORRELATION_MDC_KEY, correlationId);
    try {
      return call.get();
    } finally {
      if (before == null) {
        CORRELATION_ID.remove();
      } else {
        CORRELATION_ID.set(before);
      }
      if (mdcBefore == null) {
        org.slf4j.MDC.remove(CORRELATION_MDC_KEY);
      } else {
        org.slf4j.MDC.put(CORRELATION_MDC_KEY, mdcBefore);
      }
    }
  }

  /** The correlation id of this thread: {@link #withCorrelation}'s, else the MDC's, else null. */
  static @org.jspecify.annotations.Nullable String correlationId() {
    String id = CORRELATION_ID.get();
    return id != null ? id : org.slf4j.MDC.get(CORRELATION_MDC_KEY);
  }

  /**
   * The engine, observed: every operation of it and of its {@link Engram#operator()} view is one
   * {@value #OPERATION} observation. Closing the result closes {@code engram}.
   *
   * @param engram the engine
   * @param store the store {@code engram} was built with (only its kind is used)
   * @param registry where the observations go
   * @return the observed engine
   * @throws NullPointerException if an argument is null
   */
  public static Engram observe(Engram engram, MemoryStore store, ObservationRegistry registry) {
    Objects.requireNonNull(engram, "engram");
    Objects.requireNonNull(registry, "registry");
    return new ObservedEngram(engram, new Observations(registry, OPERATION, OPERATION_KEY,
        KeyValues.of(STORE, storeKind(Objects.requireNonNull(store, "store")))));
  }

  /**
   * The store, observed: every {@code inTransaction} call is one {@value #TRANSACTION} observation
   * tagged with the store's kind, {@value #NESTED} and the outcome, timing the whole transaction (the
   * wait for the scope's head, the work and the commit). Every other method of the store, the SPI's
   * default methods included, is forwarded to {@code store} unchanged. Build the engine with the
   * result, and pass either to {@link #observe(Engram, MemoryStore, ObservationRegistry)}.
   *
   * @param store the store
   * @param registry where the observations go
   * @return the observed store
   * @throws NullPointerException if an argument is null
   */
  public static MemoryStore observe(MemoryStore store, ObservationRegistry registry) {
    Objects.requireNonNull(store, "store");
    return ObservedProxy.store(store, new Observations(Objects.requireNonNull(registry, "registry"), TRANSACTION,
        STORE_CALL, KeyValues.of(STORE, storeKind(store))));
  }

  private static String storeKind(MemoryStore store) {
    return kind(ObservedProxy.unwrap(store).getClass(), "MemoryStore");
  }

  /**
   * The embedder, observed: every {@code embed} and {@code embedQueries} call is one
   * {@value #EMBEDDING} observation tagged with the profile.
   *
   * @param embedder the embedder
   * @param registry where the observations go
   * @return the observed embedder, with the same profile
   * @throws NullPointerException if an argument is null
   */
  public static Embedder observe(Embedder embedder, ObservationRegistry registry) {
    Objects.requireNonNull(embedder, "embedder");
    return new ObservedEmbedder(embedder, new Observations(Objects.requireNonNull(registry, "registry"), EMBEDDING,
        EMBEDDING_KEY, KeyValues.of(PROFILE, embedder.profile().id())));
  }

  /**
   * The reasoner, observed: every job ({@code tag}, {@code curate}, {@code extract}, {@code incubate}, {@code views}) is
   * one {@value #REASONER} observation tagged with the reasoner's kind and, when the job called a model
   * (a reasoner that reports its calls, as {@code LlmReasoner} does), with that model's
   * {@value #MODEL_PROVIDER} and {@value #MODEL}; what it declares
   * ({@code curates()}, {@code extracts()}, …) is passed through unchanged.
   *
   * @param reasoner the reasoner
   * @param registry where the observations go
   * @return the observed reasoner
   * @throws NullPointerException if an argument is null
   */
  public static Reasoner observe(Reasoner reasoner, ObservationRegistry registry) {
    Objects.requireNonNull(reasoner, "reasoner");
    return new ObservedReasoner(reasoner, new Observations(Objects.requireNonNull(registry, "registry"), REASONER,
        JOB, KeyValues.of(REASONER_KIND, kind(reasoner.getClass(), "Reasoner"))));
  }

  /** A class's simple name without {@code suffix}, lowercase: {@code SqliteMemoryStore} is {@code sqlite}. */
  static String kind(Class<?> type, String suffix) {
    String n = type.getSimpleName();
    if (n.endsWith(suffix) && n.length() > suffix.length()) {
      n = n.substring(0, n.length() - suffix.length());
    }
    return n.isEmpty() ? "unknown" : n.toLowerCase(Locale.ROOT);
  }
}

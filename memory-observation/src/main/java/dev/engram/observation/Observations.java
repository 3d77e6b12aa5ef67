/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.observation;

import dev.engram.MemoryException;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs calls as observations of one name with the low-cardinality key values every observation of it
 * carries, and the outcome: {@code success}, the lowercase {@link dev.engram.ErrorCode} of a
 * {@link MemoryException}, or {@code error} for anything else.
 */
final class Observations {
  private final ObservationRegistry registry;
  private final String name;
  private final String operationKey;
  private final KeyValues fixed;

  Observations(ObservationRegistry registry, String name, String operationKey, KeyValues fixed) {
    this.registry = registry;
    this.name = name;
    this.operationKey = operationKey;
    this.fixed = fixed;
  }

  <T> T call(String operation, Supplier<T> call) {
    return call(operation, call, r -> KeyValues.empty());
  }

  void run(String operation, Runnable call) {
    call(operation, () -> {
      call.run();
      return null;
    });
  }

  <T> T call(String operation, Supplier<T> call, Function<? super T, KeyValues> tags) {
    return call(operation, KeyValues.empty(), call, tags);
  }

  /** {@link #call(String, Supplier, Function)} with {@code extra} key values known before the call. */
  <T> T call(String operation, KeyValues extra, Supplier<T> call, Function<? super T, KeyValues> tags) {
    if (registry.isNoop()) {
      return call.get();
    }
    Observation o = Observation.createNotStarted(name, registry)
        .contextualName(name + " " + operation)
        .lowCardinalityKeyValue(operationKey, operation)
        .lowCardinalityKeyValues(fixed)
        .lowCardinalityKeyValues(extra);
    String correlation = EngramObservation.correlationId();
    if (correlation != null && !correlation.isBlank()) {
      o.highCardinalityKeyValue(EngramObservation.CORRELATION, correlation);
    }
    o.start();
    try (Observation.Scope scope = o.openScope()) {
      T out = call.get();
      o.lowCardinalityKeyValue(EngramObservation.OUTCOME, "success");
      if (out != null) {
        o.lowCardinalityKeyValues(tags.apply(out));
      }
      return out;
    } catch (RuntimeException | Error e) {
      o.lowCardinalityKeyValue(EngramObservation.OUTCOME, outcome(e));
      o.error(e);
      throw e;
    } finally {
      o.stop();
    }
  }

  /** The registry's current observation when it is one of these, else null. */
  @Nullable Observation current() {
    Observation o = registry.getCurrentObservation();
    return o != null && name.equals(o.getContext().getName()) ? o : null;
  }

  static String outcome(@Nullable Throwable e) {
    return e instanceof MemoryException m ? m.code().name().toLowerCase(Locale.ROOT) : "error";
  }
}

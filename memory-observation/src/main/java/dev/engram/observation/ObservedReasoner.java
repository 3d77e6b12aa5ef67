/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.observation;

import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.EntryViews;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagFailure;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Reasoner} whose jobs (tag, curate, extract, incubate, views) are observations named
 * {@value EngramObservation#REASONER}. Every method of {@code Reasoner} is forwarded, the defaults
 * included, so the engine sees exactly what the wrapped reasoner declares.
 */
final class ObservedReasoner implements Reasoner {
  private static final io.micrometer.common.KeyValues NO_MODEL = io.micrometer.common.KeyValues.of(
      EngramObservation.MODEL_PROVIDER, "none", EngramObservation.MODEL, "none");
  private final Reasoner delegate;
  private final Observations observation;

  ObservedReasoner(Reasoner delegate, Observations observation) {
    this.delegate = delegate;
    this.observation = observation;
  }

  /** A job as an observation whose model key values say {@code none} until a model call names them. */
  private <T> T job(String name, java.util.function.Supplier<T> call) {
    return observation.call(name, NO_MODEL, call, r -> io.micrometer.common.KeyValues.empty());
  }

  @Override
  public TagProposal tag(TagRequest request) {
    return job("tag", () -> delegate.tag(request));
  }

  /**
   * The wrapped reasoner reporting to {@code listener}, observed the same way; each model call it
   * reports also tags the job's observation running on that thread with the call's provider and model.
   */
  @Override
  public Reasoner reportingTo(dev.engram.spi.ModelCallListener listener) {
    java.util.Objects.requireNonNull(listener, "listener");
    return new ObservedReasoner(delegate.reportingTo(call -> {
      io.micrometer.observation.Observation job = observation.current();
      if (job != null) {
        job.lowCardinalityKeyValue(EngramObservation.MODEL_PROVIDER, call.provider());
        job.lowCardinalityKeyValue(EngramObservation.MODEL, call.model());
      }
      listener.onModelCall(call);
    }), observation);
  }

  @Override
  public boolean usesContext() {
    return delegate.usesContext();
  }

  @Override
  public TagFailure tagFailure() {
    return delegate.tagFailure();
  }

  @Override
  public boolean curates() {
    return delegate.curates();
  }

  @Override
  public List<CurateOp> curate(CurateRequest request) {
    return job("curate", () -> delegate.curate(request));
  }

  @Override
  public boolean extracts() {
    return delegate.extracts();
  }

  @Override
  public List<ExtractedMemory> extract(ExtractRequest request) {
    return job("extract", () -> delegate.extract(request));
  }

  @Override
  public boolean incubates() {
    return delegate.incubates();
  }

  @Override
  public List<dev.engram.spi.IncubatedExperience> incubate(dev.engram.spi.IncubateRequest request) {
    return job("incubate", () -> delegate.incubate(request));
  }

  @Override
  public @Nullable EntryViews views(String content, @Nullable String disclosure, List<String> glossary,
      @Nullable String path) {
    return job("views", () -> delegate.views(content, disclosure, glossary, path));
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}

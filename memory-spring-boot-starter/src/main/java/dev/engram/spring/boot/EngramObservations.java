/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spring.boot;

import dev.engram.Engram;
import dev.engram.observation.EngramObservation;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the context's {@link Engram}, {@link Reasoner} and {@link Embedder} beans with
 * {@link EngramObservation} when the application has an {@link ObservationRegistry}; without one the
 * beans stay as they are.
 */
final class EngramObservations implements BeanPostProcessor {
  private final ObjectProvider<ObservationRegistry> registry;
  private final ObjectProvider<MemoryStore> store;

  EngramObservations(ObjectProvider<ObservationRegistry> registry, ObjectProvider<MemoryStore> store) {
    this.registry = registry;
    this.store = store;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean.getClass().getPackageName().equals(EngramObservation.class.getPackageName())) {
      return bean;
    }
    if (!(bean instanceof Engram || bean instanceof Reasoner || bean instanceof Embedder)) {
      return bean;
    }
    ObservationRegistry r = registry.getIfAvailable();
    if (r == null || r.isNoop()) {
      return bean;
    }
    if (bean instanceof Engram engram) {
      MemoryStore s = store.getIfAvailable();
      return s == null ? bean : EngramObservation.observe(engram, s, r);
    }
    if (bean instanceof Reasoner reasoner) {
      return EngramObservation.observe(reasoner, r);
    }
    return EngramObservation.observe((Embedder) bean, r);
  }
}

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
 * Wraps the context's {@link Engram}, {@link Reasoner} and {@link Embedder} beans, and the store this
 * starter creates ({@value #STORE_BEAN}), with {@link EngramObservation} when the application has an
 * {@link ObservationRegistry}; without one the beans stay as they are. A store bean of the application's
 * own keeps its type (it may be injected by its class elsewhere): the application wraps it with
 * {@link EngramObservation#observe(MemoryStore, ObservationRegistry)} to time its transactions.
 */
final class EngramObservations implements BeanPostProcessor {
  /** The name of the store bean this starter creates. */
  static final String STORE_BEAN = "engramMemoryStore";
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
    boolean ownStore = bean instanceof MemoryStore && STORE_BEAN.equals(beanName);
    if (!(ownStore || bean instanceof Engram || bean instanceof Reasoner || bean instanceof Embedder)) {
      return bean;
    }
    ObservationRegistry r = registry.getIfAvailable();
    if (r == null || r.isNoop()) {
      return bean;
    }
    if (ownStore) {
      return EngramObservation.observe((MemoryStore) bean, r);
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

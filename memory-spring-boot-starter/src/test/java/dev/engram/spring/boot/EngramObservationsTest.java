/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.observation.EngramObservation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class EngramObservationsTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(EngramAutoConfiguration.class))
      .withPropertyValues("engram.store=memory", "engram.embedder=none");

  @Test
  void theApplicationsObservationRegistryObservesTheEngine() {
    List<String> names = new CopyOnWriteArrayList<>();
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onStop(Observation.Context context) {
        var op = context.getLowCardinalityKeyValue(EngramObservation.OPERATION_KEY);
        names.add(context.getName() + ":" + (op == null ? "" : op.getValue()));
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
    runner.withBean(ObservationRegistry.class, () -> registry).run(context -> {
      Engram engram = context.getBean(Engram.class);
      engram.write(Grants.of("app/user/u1"), "Prefers metric units.");
      assertThat(names).contains("engram.operation:write");
      assertThat(names).anyMatch(n -> n.startsWith("engram.reasoner:"));
      assertThat(names).contains("engram.store.transaction:");
    });
  }

  @Test
  void withoutARegistryOrWithoutTheModuleTheEngineIsNotWrapped() {
    runner.run(context -> assertThat(context.getBean(Engram.class).getClass().getPackageName())
        .isEqualTo("dev.engram.internal"));
    runner.withClassLoader(new FilteredClassLoader("dev.engram.observation"))
        .withBean(ObservationRegistry.class, ObservationRegistry::create)
        .run(context -> assertThat(context.getBean(Engram.class).getClass().getPackageName())
            .isEqualTo("dev.engram.internal"));
  }
}

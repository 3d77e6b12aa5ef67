/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The naming and construction rules of docs/API.md, over the public API of {@code memory-api}
 * ({@code dev.engram} and {@code dev.engram.spi}).
 */
class ApiShapeTest {
  /** Input types of the facade that will grow: final classes made by factories or builders. */
  private static final DescribedPredicate<JavaClass> GROWING_INPUTS = new DescribedPredicate<>(
      "inputs that will grow (the facade's …Options, …Request, …Query, …Settings, EntryPatch, WritePolicy; the SPI's …Options)") {
    @Override
    public boolean test(JavaClass c) {
      String n = c.getSimpleName();
      if (!c.getModifiers().contains(JavaModifier.PUBLIC) || c.isNestedClass()) {
        return false;
      }
      // the SPI's requests are records the engine makes for a reasoner; its options are inputs that grow
      if (c.getPackageName().equals("dev.engram.spi")) {
        return n.endsWith("Options");
      }
      return c.getPackageName().equals("dev.engram")
          // one item of writeAll: content and its WriteOptions, closed (the options grow, not the pair)
          && !n.equals("WriteRequest")
          // a page cursor and a size, closed
          && !n.equals("HistoryOptions") && !n.equals("ReadOptions")
          && (n.endsWith("Options") || n.endsWith("Request") || n.endsWith("Query") || n.endsWith("Settings")
              || n.equals("EntryPatch") || n.equals("WritePolicy"));
    }
  };

  private static JavaClasses api;

  @BeforeAll
  static void importApi() {
    api = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.engram", "dev.engram.spi");
  }

  @Test
  void inputsThatWillGrowAreFinalClassesWithoutPublicConstructors() {
    classes().that(GROWING_INPUTS)
        .should().haveModifier(JavaModifier.FINAL)
        .andShould(new ArchCondition<>("not be records and have no public constructor") {
          @Override
          public void check(JavaClass c, ConditionEvents events) {
            boolean record = c.getRawSuperclass().map(s -> s.getName().equals("java.lang.Record")).orElse(false);
            boolean publicConstructor = c.getConstructors().stream()
                .anyMatch(k -> k.getModifiers().contains(JavaModifier.PUBLIC));
            if (record || publicConstructor) {
              events.add(SimpleConditionEvent.violated(c, c.getName() + (record ? " is a record" : " has a public constructor")));
            }
          }
        })
        .andShould(new ArchCondition<>("offer defaults() or a builder") {
          @Override
          public void check(JavaClass c, ConditionEvents events) {
            boolean made = c.getMethods().stream().anyMatch(m -> m.getModifiers().contains(JavaModifier.STATIC)
                && Set.of("defaults", "builder").contains(m.getName()));
            if (!made) {
              events.add(SimpleConditionEvent.violated(c, c.getName() + " has neither defaults() nor builder()"));
            }
          }
        })
        .check(api);
  }

  @Test
  void noInputTypeOffersWithCopies() {
    methods().that().areDeclaredInClassesThat(GROWING_INPUTS).and().arePublic()
        .should(new ArchCondition<>("not be a with… copy") {
          @Override
          public void check(JavaMethod m, ConditionEvents events) {
            if (m.getName().matches("with[A-Z].*") && !m.getModifiers().contains(JavaModifier.STATIC)) {
              events.add(SimpleConditionEvent.violated(m, m.getFullName() + " is a with… copy; use toBuilder()"));
            }
          }
        })
        .check(api);
  }

  @Test
  void noPublicOperationTakesABooleanFlag() {
    methods().that().arePublic().and().areDeclaredInClassesThat(new DescribedPredicate<>("facade and SPI types, builders aside") {
          @Override
          public boolean test(JavaClass c) {
            return (c.getPackageName().equals("dev.engram") || c.getPackageName().equals("dev.engram.spi"))
                && !c.getSimpleName().endsWith("Builder");
          }
        })
        .should(new ArchCondition<>("take no boolean parameter") {
          @Override
          public void check(JavaMethod m, ConditionEvents events) {
            if (m.getRawParameterTypes().stream().anyMatch(t -> t.getName().equals("boolean") || t.getName().equals("java.lang.Boolean"))) {
              events.add(SimpleConditionEvent.violated(m, m.getFullName() + " takes a boolean; use a named option or an enum"));
            }
          }
        })
        .check(api);
  }

  @Test
  void theCoreNamesNoAgentProduct() {
    noClasses().that().resideInAnyPackage("dev.engram", "dev.engram.spi", "dev.engram.internal")
        .should().haveSimpleNameContaining("ClientType").orShould().haveSimpleName("Origin")
        .because("agent runtimes and origins are open ids; memory-agent names the runtimes it knows")
        .check(api);
  }
}

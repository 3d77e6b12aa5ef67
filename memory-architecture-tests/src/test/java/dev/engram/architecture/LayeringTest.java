/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of Engram's artifacts, over the production classes of every shipping module on this
 * module's test class path:
 *
 * <ul>
 *   <li>the API and the engine ({@code dev.engram}, {@code .spi}, {@code .internal}, and the JSON forms
 *       both share, {@code .json}) depend on no adapter (store, reasoner, embedder, or anything built on
 *       top);
 *   <li>the SPI never reaches into the engine, and its public surface carries no Jackson type;
 *   <li>nothing outside memory-api touches {@code dev.engram.internal} or {@code dev.engram.json}, and only
 *       the LLM reasoner and the HTTP embedder use the retrying HTTP client ({@code dev.engram.http}), which
 *       the engine does not use;
 *   <li>stores, reasoners and embedders never depend on one another (the offline embedders share the
 *       ONNX encoder of memory-embeddings-onnx, which knows no model);
 *   <li>only the contract tests use the test support of memory-test, which depends on no store.
 * </ul>
 */
class LayeringTest {
  private static final String API = "dev.engram";
  private static final String SPI = "dev.engram.spi";
  private static final String INTERNAL = "dev.engram.internal..";
  /** The JSON forms as Jackson trees, shared by the SPI's string codec and the engine; not exported. */
  private static final String JSON = "dev.engram.json";
  /** The retrying HTTP client of the reasoner and the HTTP embedder; exported to those two only. */
  private static final String HTTP = "dev.engram.http";
  private static final String ONNX = "dev.engram.embeddings.onnx..";
  private static final String[] ONNX_EMBEDDERS = {"dev.engram.embeddings.e5..", "dev.engram.embeddings.minilm.."};

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.engram");
  }

  @Test
  void everyShippingModuleIsImported() {
    assertThat(Stream.of(
            "dev.engram.Engram", "dev.engram.internal.MemoryEngine", "dev.engram.spi.MemoryStore",
            "dev.engram.store.inmemory.InMemoryMemoryStore", "dev.engram.store.sqlite.SqliteMemoryStore",
            "dev.engram.store.postgres.PostgresMemoryStore", "dev.engram.reasoner.DeterministicReasoner",
            "dev.engram.embeddings.onnx.OnnxEncoder", "dev.engram.embeddings.e5.E5SmallEmbedder",
            "dev.engram.embeddings.minilm.MiniLmEmbedder", "dev.engram.embeddings.http.OpenAiCompatibleEmbedder",
            "dev.engram.test.TestMemory"))
        .allMatch(classes::contain);
  }

  @Test
  void theEngineDependsOnNoAdapter() {
    classes().that().resideInAnyPackage(API, SPI, INTERNAL, JSON)
        .should().onlyDependOnClassesThat().resideInAnyPackage(
            API, SPI, INTERNAL, JSON, "java..", "javax..", "com.fasterxml.jackson..", "org.jspecify..", "org.slf4j..")
        .because("the engine sees stores, reasoners and embedders only through the SPI")
        .check(classes);
  }

  @Test
  void theSpiNeverReachesIntoTheEngine() {
    noClasses().that().resideInAPackage(SPI)
        .should().dependOnClassesThat().resideInAPackage(INTERNAL)
        .check(classes);
  }

  @Test
  void onlyTheBuilderOfTheApiCreatesTheEngine() {
    noClasses().that().resideInAPackage(API).and().doNotHaveFullyQualifiedName("dev.engram.EngramBuilder")
        .should().dependOnClassesThat().resideInAPackage(INTERNAL)
        .check(classes);
  }

  @Test
  void nothingOutsideTheApiModuleTouchesTheEngine() {
    noClasses().that().resideOutsideOfPackages(API, SPI, INTERNAL, JSON)
        .should().dependOnClassesThat().resideInAnyPackage(INTERNAL, JSON)
        .because("dev.engram.internal and dev.engram.json are not exported; adapters use dev.engram and dev.engram.spi")
        .check(classes);
  }

  @Test
  void onlyTheTwoHttpAdaptersUseTheSharedHttpClient() {
    noClasses().that().resideOutsideOfPackages(HTTP, "dev.engram.reasoner..", "dev.engram.embeddings.http..")
        .should().dependOnClassesThat().resideInAPackage(HTTP)
        .because("memory-api exports dev.engram.http to dev.engram.reasoner and dev.engram.embeddings.http only")
        .check(classes);
  }

  @Test
  void thePublicSurfaceOfTheApiAndSpiCarriesNoJacksonType() {
    codeUnits().that().arePublic().or().areProtected()
        .and().areDeclaredInClassesThat().resideInAnyPackage(API, SPI)
        .and().areDeclaredInClassesThat().arePublic()
        .should(exposeNoType("com.fasterxml.jackson"))
        .check(classes);
  }

  @Test
  void storesNeverDependOnEachOtherNorOnReasonersOrEmbedders() {
    slices().matching("dev.engram.store.(*)..").should().notDependOnEachOther().check(classes);
    noClasses().that().resideInAPackage("dev.engram.store..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.engram.reasoner..", "dev.engram.embeddings..")
        .check(classes);
  }

  @Test
  void reasonersAndEmbeddersNeverDependOnStoresNorOnEachOther() {
    noClasses().that().resideInAnyPackage("dev.engram.reasoner..", "dev.engram.embeddings..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.engram.store..", "dev.engram.tck..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.engram.reasoner..")
        .should().dependOnClassesThat().resideInAPackage("dev.engram.embeddings..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.engram.embeddings..")
        .should().dependOnClassesThat().resideInAPackage("dev.engram.reasoner..")
        .check(classes);
    // the offline embedders share the ONNX encoder and nothing else
    slices().matching("dev.engram.embeddings.(*)..").should().notDependOnEachOther()
        .ignoreDependency(resideInAnyPackage(ONNX_EMBEDDERS), resideInAPackage(ONNX))
        .check(classes);
  }

  @Test
  void onlyTheOfflineEmbeddersUseTheOnnxEncoderAndItKnowsNoModelModule() {
    noClasses().that().resideOutsideOfPackages(ONNX, "dev.engram.embeddings.e5..", "dev.engram.embeddings.minilm..")
        .and().resideInAPackage("dev.engram.embeddings..")
        .should().dependOnClassesThat().resideInAPackage(ONNX)
        .check(classes);
    noClasses().that().resideInAPackage(ONNX)
        .should().dependOnClassesThat().resideInAnyPackage("dev.langchain4j.model.embedding.onnx.e5smallv2q..",
            "dev.langchain4j.model.embedding.onnx.allminilml6v2q..")
        .because("memory-embeddings-onnx carries no model; each model has its own module")
        .check(classes);
  }

  @Test
  void onlyTheContractTestsUseTheTestSupport() {
    noClasses().that().resideOutsideOfPackages("dev.engram.tck..", "dev.engram.test..")
        .should().dependOnClassesThat().resideInAPackage("dev.engram.test..")
        .because("memory-test is for tests: a scripted reasoner or hashing embedder never ships in production code")
        .check(classes);
    noClasses().that().resideInAPackage("dev.engram.test..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.engram.store..", "dev.engram.tck..")
        .because("the stores' contract tests use memory-test, so it finds its store through StoreSpec")
        .check(classes);
  }

  @Test
  void shippingCodeNeverDependsOnTheContractTests() {
    noClasses().that().resideOutsideOfPackage("dev.engram.tck..")
        .should().dependOnClassesThat().resideInAPackage("dev.engram.tck..")
        .check(classes);
  }

  private static ArchCondition<JavaCodeUnit> exposeNoType(String packagePrefix) {
    return new ArchCondition<>("expose no type of " + packagePrefix) {
      @Override
      public void check(JavaCodeUnit unit, ConditionEvents events) {
        Stream.concat(Stream.of(unit.getRawReturnType()), unit.getRawParameterTypes().stream())
            .map(JavaClass::getName)
            .filter(name -> name.startsWith(packagePrefix))
            .forEach(name -> events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " exposes " + name)));
      }
    };
  }
}

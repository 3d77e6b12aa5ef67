/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published javadoc is complete: the compiler's doclint, its "missing" group included, finds nothing in
 * a module's main sources (a type, member or constant without a comment, a {@code @param} or
 * {@code @return} left out, a record's compact constructor whose comment does not name every component).
 * A compile reports these only as warnings, which do not fail a build; the release profile's javadoc jar
 * fails on them, and this test fails on them in every build. The packages javadoc leaves out (the engine,
 * the JSON forms, the HTTP client) are left out here too. What javadoc alone checks (the comments of an
 * exception's serialized fields) is left to the release build.
 */
class JavadocTest {
  /** The packages the javadoc plugin excludes (root pom), in doclint's spelling. */
  private static final String NOT_API =
      "-dev.engram.internal,-dev.engram.internal.*,-dev.engram.json,-dev.engram.http";

  /** The published modules this module depends on (its pom), so their dependencies are on the class path. */
  private static final List<String> MODULES = List.of(
      "memory-api", "memory-reasoner", "memory-embeddings-onnx", "memory-embeddings-e5", "memory-embeddings-minilm",
      "memory-embeddings-http", "memory-test", "memory-store-tck", "memory-store-inmemory", "memory-store-sqlite",
      "memory-store-postgres", "memory-agent", "memory-mcp", "memory-cli", "memory-spring-ai",
      "memory-spring-boot-starter", "memory-langchain4j", "memory-observation");

  @Test
  void everyPublishedTypeAndMemberIsDocumented(@TempDir Path out) throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> sources = new ArrayList<>();
    for (String module : MODULES) {
      Path main = root.resolve(module).resolve("src/main/java");
      assertThat(main).as("the main sources of %s", module).isDirectory();
      try (Stream<Path> walk = Files.walk(main)) {
        walk.filter(p -> p.toString().endsWith(".java"))
            .filter(p -> !p.getFileName().toString().equals("module-info.java"))
            .forEach(sources::add);
      }
    }

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean compiled;
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      // one compilation of all of them, on the class path (the test's, with every dependency); no module is named
      List<String> options = List.of(
          "--release", "17", "-proc:none", "-implicit:none", "-Xmaxwarns", "100000", "-Xmaxerrs", "100000",
          "-d", out.toString(), "-classpath", System.getProperty("java.class.path"),
          "-Xdoclint:all/protected", "-Xdoclint/package:" + NOT_API);
      compiled = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources))
          .call();
    }
    List<String> findings = diagnostics.getDiagnostics().stream()
        .filter(d -> d.getKind() == Diagnostic.Kind.ERROR || d.getCode().endsWith(".proc.messager"))
        .map(d -> describe(root, d))
        .toList();
    assertThat(findings).as("doclint findings in the published modules' main sources").isEmpty();
    assertThat(compiled).as("the published modules compile").isTrue();
  }

  private static String describe(Path root, Diagnostic<? extends JavaFileObject> d) {
    if (d.getSource() == null) {
      return d.getMessage(Locale.ROOT);
    }
    return root.relativize(Path.of(d.getSource().toUri())) + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT);
  }
}

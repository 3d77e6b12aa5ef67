/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
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
 * The exported packages' javadoc is complete: the compiler's doclint with its "missing" group (a type,
 * member or constant without a comment, a {@code @param} or {@code @return} left out, a record's compact
 * constructor whose comment names no component) finds nothing. The compile itself reports these only as
 * warnings, which do not fail a build; the javadoc jar of the release profile fails on them, and this test
 * fails on them in every build. The packages javadoc leaves out (the engine, the JSON forms, the HTTP
 * client) are left out here too.
 */
class JavadocTest {
  private static final String NOT_API =
      "-dev.engram.internal,-dev.engram.internal.*,-dev.engram.json,-dev.engram.http";

  @Test
  void everyExportedTypeAndMemberIsDocumented(@TempDir Path out) throws IOException {
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(Path.of("src", "main", "java"))) {
      sources = walk.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("module-info.java"))
          .toList();
    }
    assertThat(sources).as("memory-api's sources, from %s", Path.of("").toAbsolutePath()).hasSizeGreaterThan(50);

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean compiled;
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options = List.of(
          "--release", "17", "-proc:none", "-implicit:none", "-Xmaxwarns", "100000", "-Xmaxerrs", "100000",
          "-d", out.toString(), "-classpath", dependencies(),
          "-Xdoclint:all/protected", "-Xdoclint/package:" + NOT_API);
      compiled = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources))
          .call();
    }
    List<String> findings = diagnostics.getDiagnostics().stream()
        .filter(d -> d.getKind() == Diagnostic.Kind.ERROR || d.getCode().endsWith(".proc.messager"))
        .map(JavadocTest::describe)
        .toList();
    assertThat(findings).as("doclint findings in memory-api's exported packages").isEmpty();
    assertThat(compiled).as("memory-api compiles").isTrue();
  }

  /** What the test runs on, class path and module path alike: the API's own dependencies are among it. */
  private static String dependencies() {
    return Stream.of(System.getProperty("jdk.module.path"), System.getProperty("java.class.path"))
        .filter(p -> p != null && !p.isEmpty())
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static String describe(Diagnostic<? extends JavaFileObject> d) {
    if (d.getSource() == null) {
      return d.getMessage(Locale.ROOT);
    }
    return Path.of(d.getSource().toUri()).getFileName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT);
  }
}

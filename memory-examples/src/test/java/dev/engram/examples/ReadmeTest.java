/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.examples.Readme.Block;
import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/**
 * The README's code blocks compile as shown, against the modules this module depends on, so the README
 * cannot drift from the API: see {@link Readme} for the directives that mark what a block is.
 */
class ReadmeTest {
  @TempDir Path dir;

  @Test
  void everyJavaBlockCompilesOrIsMarked() throws Exception {
    List<Block> blocks = Readme.blocks();
    assertThat(blocks).as("README.md code blocks").hasSizeGreaterThan(10);
    Map<String, Block> sources = new LinkedHashMap<>();
    List<String> runs = new ArrayList<>();
    for (Block b : blocks) {
      if (b.directed("fragment")) {
        assertThat(b.argument("fragment")).as("a fragment says why, line %d", b.line()).startsWith("(").hasSizeGreaterThan(5);
        continue;
      }
      if (b.directed("file")) {
        String file = Files.readString(Readme.root().resolve(b.argument("file")), StandardCharsets.UTF_8);
        String shown = file.startsWith(Readme.HEADER) ? file.substring(Readme.HEADER.length()) : file;
        assertThat(b.code()).as("README.md line %d is %s", b.line(), b.argument("file")).isEqualTo(shown);
        continue;
      }
      if (b.directed("newcomer")) {
        if (b.language().equals("xml")) {
          DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(b.code())));
        } else {
          assertThat(b.language()).isEqualTo("java");
          sources.put(b.argument("newcomer").replaceFirst("^src/main/java/", ""), b);
        }
        continue;
      }
      if (!b.language().equals("java")) {
        assertThat(b.directive()).as("line %d: only Java blocks take directives", b.line()).isNull();
        continue;
      }
      String name = "Snippet" + b.line();
      sources.put("readme/" + name + ".java", b);
      if (b.directed("run")) {
        runs.add("readme." + name);
      }
    }
    Path src = dir.resolve("src");
    Path classes = Files.createDirectories(dir.resolve("classes"));
    List<Path> files = new ArrayList<>();
    Map<Path, Block> origin = new LinkedHashMap<>();
    for (Map.Entry<String, Block> e : sources.entrySet()) {
      Path file = src.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      String name = file.getFileName().toString().replace(".java", "");
      Files.writeString(file, e.getKey().startsWith("readme/") ? wrap(name, e.getValue()) : e.getValue().code());
      files.add(file);
      origin.put(file, e.getValue());
    }
    assertThat(runs).as("the Use block runs").isNotEmpty();
    compile(files, classes, origin);

    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      for (String name : runs) {
        Method snippet = loader.loadClass(name).getDeclaredMethod("snippet");
        snippet.setAccessible(true);
        snippet.invoke(null);
      }
    }
  }

  @Test
  void theDirectivesAreRead() {
    List<Block> blocks = Readme.blocks("""
        text
        <!-- readme: fragment (needs a bean) -->
        ```java
        int x = 1;
        ```

        ```bash
        mvn verify
        ```
        <!-- readme: run; check: x == 1 -->

        ```java
        int x = 1;
        ```
        """);
    assertThat(blocks).extracting(Block::language).containsExactly("java", "bash", "java");
    assertThat(blocks.get(0).directed("fragment")).isTrue();
    assertThat(blocks.get(1).directive()).isNull();
    assertThat(blocks.get(2).directed("run")).as("a blank line between directive and block is fine").isTrue();
    assertThat(blocks.get(2).argument("run")).isEqualTo("; check: x == 1");
    assertThat(blocks.get(0).code()).isEqualTo("int x = 1;\n");
  }

  /** A block of imports and statements as a class whose one method runs the statements, then the checks. */
  static String wrap(String name, Block b) {
    StringBuilder imports = new StringBuilder();
    StringBuilder body = new StringBuilder();
    for (String line : b.code().lines().toList()) {
      (line.startsWith("import ") ? imports : body).append(line).append('\n');
    }
    String params = b.directed("with") ? b.argument("with") : "";
    StringBuilder checks = new StringBuilder();
    if (b.directed("run")) {
      String rest = b.argument("run");
      int at = rest.indexOf("check:");
      if (at >= 0) {
        String expression = rest.substring(at + "check:".length()).strip();
        checks.append("    if (!(").append(expression).append(")) {\n      throw new AssertionError(\"README.md line ")
            .append(b.line()).append(": ").append(expression.replace("\\", "\\\\").replace("\"", "\\\""))
            .append("\");\n    }\n");
      }
    }
    return "package readme;\n\n" + imports + "\n@SuppressWarnings(\"unused\")\nfinal class " + name + " {\n"
        + "  static void snippet(" + params + ") throws Exception {\n" + body.toString().indent(4) + checks
        + "  }\n}\n";
  }

  private static void compile(List<Path> files, Path classes, Map<Path, Block> origin) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options = List.of("--release", "17", "-proc:none", "-d", classes.toString(),
          "-classpath", classpath());
      boolean ok = javac.getTask(null, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files)).call();
      StringBuilder report = new StringBuilder();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          Path file = Path.of(d.getSource().toUri());
          Block b = origin.get(file);
          report.append("README.md block at line ").append(b == null ? "?" : b.line()).append(": ")
              .append(d.getMessage(Locale.ROOT)).append("\n  ").append(lineOf(file, d.getLineNumber())).append('\n');
        }
      }
      assertThat(report.toString()).as("compile errors").isEmpty();
      assertThat(ok).isTrue();
    }
  }

  private static String lineOf(Path file, long line) throws IOException {
    List<String> lines = Files.readAllLines(file);
    return line >= 1 && line <= lines.size() ? lines.get((int) line - 1).strip() : "";
  }

  /** This module's test class path, which the build hands over. */
  static String classpath() {
    String cp = System.getProperty("engram.test.classpath");
    assertThat(cp).as("system property engram.test.classpath (set by the build)").isNotBlank();
    return cp;
  }
}

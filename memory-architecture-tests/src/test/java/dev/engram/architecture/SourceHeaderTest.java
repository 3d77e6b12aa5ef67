/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every Java source of the reactor starts with the project's Apache-2.0 header. */
class SourceHeaderTest {

  static final String HEADER = """
      /*
       * Copyright 2026 The Engram developers
       * SPDX-License-Identifier: Apache-2.0
       */
      """;

  @Test
  void everyJavaSourceCarriesTheLicenceHeader() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    assertThat(root.resolve("pom.xml")).as("the reactor root above %s", Path.of("").toAbsolutePath()).exists();
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(root)) {
      sources = walk.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> root.relativize(p).toString().contains("/src/"))
          .filter(p -> !root.relativize(p).toString().contains("/target/"))
          .toList();
    }
    assertThat(sources).hasSizeGreaterThan(100);
    List<Path> without = sources.stream().filter(p -> !startsWithHeader(p)).map(root::relativize).toList();
    assertThat(without).as("sources without the licence header").isEmpty();
  }

  private static boolean startsWithHeader(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8).startsWith(HEADER);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

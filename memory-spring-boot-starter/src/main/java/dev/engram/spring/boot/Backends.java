/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spring.boot;

import dev.engram.embeddings.http.OpenAiCompatibleEmbedder;
import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;

/**
 * The optional backends, each behind its own method so that a backend's classes are loaded only
 * when its property names it (and its module is on the classpath, which the caller checks first).
 */
final class Backends {
  private Backends() {}

  static MemoryStore sqlite(Path file) {
    return new SqliteMemoryStore(file);
  }

  static MemoryStore postgres(String jdbcUrl) {
    return new PostgresMemoryStore(jdbcUrl);
  }

  static Embedder miniLm() {
    return new MiniLmEmbedder();
  }

  static Embedder e5() {
    return new E5SmallEmbedder();
  }

  static Embedder openAi(EngramProperties.OpenAi settings) {
    return OpenAiCompatibleEmbedder.builder()
        .baseUrl(settings.getBaseUrl())
        .apiKey(settings.getApiKey())
        .model(settings.getModel())
        .dimension(settings.getDimension())
        .build();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import static dev.engram.mcp.MemoryMcpServerIT.MAPPER;
import static dev.engram.mcp.MemoryMcpServerIT.call;
import static dev.engram.mcp.MemoryMcpServerIT.javaBin;
import static dev.engram.mcp.MemoryMcpServerIT.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memory-mcp.jar} is the whole server: copied alone into an empty folder, it runs there under the MCP
 * SDK's own client the way an MCP client configuration starts it, and it embeds with the model whose vectors
 * the store already holds.
 */
class StandaloneJarIT {
  @TempDir Path dir;

  private Path copiedJar() throws Exception {
    Path jar = dir.resolve("memory-mcp.jar");
    Files.copy(Path.of(MemoryMcpServerIT.jar()), jar);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.toList()).containsExactly(jar);
    }
    return jar;
  }

  @Test
  void theJarAloneInAnEmptyFolderServesMemory() throws Exception {
    Path jar = copiedJar();
    ServerParameters params = ServerParameters.builder(javaBin())
        .args("-jar", jar.toString(), "--store", "sqlite:" + dir.resolve("memory.db"), "--grant", "app/user/alice")
        .build();
    StdioClientTransport transport = new StdioClientTransport(params, MAPPER);
    StringBuilder log = new StringBuilder();
    transport.setStdErrorHandler(line -> {
      synchronized (log) {
        log.append(line).append('\n');
      }
    });
    McpSyncClient client = McpClient.sync(transport).requestTimeout(MemoryMcpServerIT.TIMEOUT)
        .initializationTimeout(MemoryMcpServerIT.TIMEOUT).clientInfo(new McpSchema.Implementation("claude-code", "2.0.1"))
        .build();
    try {
      client.initialize();
      assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).contains("memory_write", "memory_search");
      assertThat(json(call(client, "memory_write", Map.of("content", "Keeps the bicycle in the blue shed.")))
          .path("outcome").asText()).isEqualTo("remembered");
      McpSchema.CallToolResult found = call(client, "memory_search", Map.of("query", "where is my bike parked?"));
      assertThat(json(found).path("results")).as("e5 vectors: found by meaning").hasSize(1);
    } finally {
      client.closeGracefully();
    }
    synchronized (log) {
      assertThat(log.toString()).contains("embedder e5 (e5-small-v2-q@384, auto)")
          .doesNotContain("NoClassDefFoundError").doesNotContain("WARN");
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("memory.db")))
          .as("nothing but the jar and the memory file").containsExactly("memory-mcp.jar");
    }
  }

  @Test
  void aStoreEmbeddedWithMiniLmIsServedWithMiniLm() throws Exception {
    Path jar = copiedJar();
    Path file = dir.resolve("app.db");
    try (Engram app = Engram.builder().store(new SqliteMemoryStore(file)).reasoner(new DeterministicReasoner())
        .embedder(new MiniLmEmbedder()).build()) {
      app.write(Grants.of("app/user/alice"), "Keeps the bicycle in the blue shed.");
    }
    Process p = new ProcessBuilder(javaBin(), "-jar", jar.toString(), "--store", "sqlite:" + file, "--grant",
        "app/user/alice").directory(dir.toFile()).start();
    try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      String started = null;
      for (String line; (line = err.readLine()) != null; ) {
        if (line.contains("memory-mcp ") && line.contains(" on stdio")) {
          started = line;
          break;
        }
      }
      assertThat(started).isNotNull().contains("embedder minilm (all-minilm-l6-v2-q@384, auto)");
      p.getOutputStream().close();
      assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
    } finally {
      p.destroyForcibly();
    }
  }
}

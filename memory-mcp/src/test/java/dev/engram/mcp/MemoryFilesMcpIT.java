/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.agent.MemoryFiles;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory-tool commands as MCP tools of the packaged server ({@code --tool-profile}), driven by the MCP SDK's client. */
class MemoryFilesMcpIT {
  @TempDir Path dir;
  private final List<McpSyncClient> open = new ArrayList<>();

  @AfterEach
  void closeAll() {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).closeGracefully();
    }
    open.clear();
  }

  McpSyncClient stdio(String... args) {
    List<String> cmd = MemoryMcpServerIT.command(args);
    ServerParameters params = ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build();
    StdioClientTransport transport = new StdioClientTransport(params, MemoryMcpServerIT.MAPPER);
    transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
    McpSyncClient client = McpClient.sync(transport).requestTimeout(MemoryMcpServerIT.TIMEOUT)
        .initializationTimeout(MemoryMcpServerIT.TIMEOUT).build();
    open.add(client);
    client.initialize();
    return client;
  }

  static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
    return client.callTool(new McpSchema.CallToolRequest(tool, args));
  }

  static String ok(McpSchema.CallToolResult r) {
    String text = ((McpSchema.TextContent) r.content().get(0)).text();
    assertThat(r.isError()).as(text).isFalse();
    return text;
  }

  static String error(McpSchema.CallToolResult r) {
    String text = ((McpSchema.TextContent) r.content().get(0)).text();
    assertThat(r.isError()).as(text).isTrue();
    assertThat(text).doesNotContain("app/user");
    return text;
  }

  @Test
  void theFileToolsAreOptInAndSpeakTheMemoryToolProtocol() {
    String store = "sqlite:" + dir.resolve("files.db");
    McpSyncClient plain = stdio("--store", store, "--grant", "app/user/a", "--embedder", "none");
    assertThat(plain.listTools().tools()).extracting(McpSchema.Tool::name).noneMatch(n -> n.startsWith("memory_file_"));
    closeAll();

    McpSyncClient both = stdio("--store", store, "--grant", "app/user/a", "--embedder", "none", "--tool-profile", "all");
    assertThat(both.listTools().tools()).extracting(McpSchema.Tool::name).contains("memory_read", "memory_file_view",
        "memory_file_create", "memory_file_str_replace", "memory_file_insert", "memory_file_delete", "memory_file_rename");
    closeAll();

    McpSyncClient a = stdio("--store", store, "--grant", "app/user/a", "--embedder", "none", "--tool-profile", "files");
    assertThat(a.listTools().tools()).extracting(McpSchema.Tool::name).containsExactly("memory_file_view",
        "memory_file_create", "memory_file_str_replace", "memory_file_insert", "memory_file_delete", "memory_file_rename");
    Map<String, List<Boolean>> hints = new java.util.LinkedHashMap<>();
    for (McpSchema.Tool t : a.listTools().tools()) {
      McpSchema.ToolAnnotations an = t.annotations();
      assertThat(an).as(t.name()).isNotNull();
      assertThat(an.title()).as(t.name()).isNotBlank().isEqualTo(t.title());
      assertThat(an.openWorldHint()).as(t.name()).isFalse();
      hints.put(t.name(), List.of(an.readOnlyHint(), an.destructiveHint(), an.idempotentHint()));
    }
    // read-only, destructive, idempotent
    assertThat(hints).containsExactly(
        Map.entry("memory_file_view", List.of(true, false, true)),
        Map.entry("memory_file_create", List.of(false, false, true)),
        Map.entry("memory_file_str_replace", List.of(false, true, false)),
        Map.entry("memory_file_insert", List.of(false, false, false)),
        Map.entry("memory_file_delete", List.of(false, true, true)),
        Map.entry("memory_file_rename", List.of(false, true, true)));
    for (McpSchema.Tool t : a.listTools().tools()) {
      assertThat(t.inputSchema().get("additionalProperties")).isEqualTo(false);
      assertThat(((Map<?, ?>) t.inputSchema().get("properties")).keySet())
          .noneMatch(k -> k.toString().matches("(?i).*(namespace|scope|grant).*"));
    }

    assertThat(ok(call(a, "memory_file_view", Map.of("path", "/memories")))).isEqualTo("Here're the files and "
        + "directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0\t/memories");
    assertThat(ok(call(a, "memory_file_create", Map.of("path", "/memories/notes.md",
        "file_text", "tea at five\ncoffee at nine\ntea at noon")))).isEqualTo("File created successfully at: /memories/notes.md");
    McpSchema.CallToolResult viewed = call(a, "memory_file_view", Map.of("path", "/memories/notes.md"));
    assertThat(ok(viewed)).isEqualTo("Here's the content of /memories/notes.md with line numbers:\n"
        + "     1\ttea at five\n     2\tcoffee at nine\n     3\ttea at noon");
    String hash = (String) viewed.meta().get(McpMemory.CONTENT_HASH_META);
    assertThat(hash).matches("[0-9a-f]{64}");

    assertThat(error(call(a, "memory_file_str_replace", Map.of("path", "/memories/notes.md", "old_str", "juice",
        "new_str", "milk")))).isEqualTo("No replacement was performed, old_str `juice` did not appear verbatim in "
        + "/memories/notes.md.");
    assertThat(error(call(a, "memory_file_str_replace", Map.of("path", "/memories/notes.md", "old_str", "tea",
        "new_str", "milk")))).isEqualTo("No replacement was performed. Multiple occurrences of old_str `tea` in lines: "
        + "1, 3. Please ensure it is unique");
    assertThat(ok(call(a, "memory_file_str_replace", Map.of("path", "/memories/notes.md", "old_str", "coffee",
        "new_str", "cocoa", "expected_content_hash", hash)))).startsWith("The memory file has been edited.")
        .contains("     2\tcocoa at nine");
    assertThat(error(call(a, "memory_file_insert", Map.of("path", "/memories/notes.md", "insert_line", 0,
        "insert_text", "x", "expected_content_hash", hash)))).startsWith("Error: The file /memories/notes.md changed "
        + "since it was read");

    assertThat(ok(call(a, "memory_file_insert", Map.of("path", "/memories/notes.md", "insert_line", 0,
        "insert_text", "# Drinks")))).isEqualTo("The file /memories/notes.md has been edited.");
    assertThat(ok(call(a, "memory_file_insert", Map.of("path", "/memories/notes.md", "insert_line", 4,
        "insert_text", "water all day")))).isEqualTo("The file /memories/notes.md has been edited.");
    assertThat(error(call(a, "memory_file_insert", Map.of("path", "/memories/notes.md", "insert_line", 6,
        "insert_text", "x")))).isEqualTo("Error: Invalid `insert_line` parameter: 6. It should be within the range of "
        + "lines of the file: [0, 5]");

    ok(call(a, "memory_file_create", Map.of("path", "/memories/other.md", "file_text", "x")));
    assertThat(error(call(a, "memory_file_rename", Map.of("old_path", "/memories/other.md", "new_path",
        "/memories/notes.md")))).isEqualTo("Error: The destination /memories/notes.md already exists");
    assertThat(ok(call(a, "memory_file_rename", Map.of("old_path", "/memories/other.md", "new_path",
        "/memories/archive/other.md")))).isEqualTo("Successfully renamed /memories/other.md to /memories/archive/other.md");
    assertThat(error(call(a, "memory_file_delete", Map.of("path", "/memories"))))
        .isEqualTo("Error: /memories itself cannot be deleted; delete the files or directories below it");
    assertThat(ok(call(a, "memory_file_delete", Map.of("path", "/memories/archive"))))
        .isEqualTo("Successfully deleted /memories/archive");

    for (String bad : List.of("/memories/../x", "/memories/%2e%2e/x", "/etc/passwd")) {
      assertThat(error(call(a, "memory_file_view", Map.of("path", bad)))).as(bad).startsWith("Error: The path " + bad);
      assertThat(error(call(a, "memory_file_create", Map.of("path", bad, "file_text", "x")))).as(bad)
          .startsWith("Error: The path " + bad);
    }
    assertThat(error(call(a, "memory_file_view", Map.of("path", "/memories", "namespace", "app/user/b"))))
        .contains("namespace");

    McpSyncClient b = stdio("--store", store, "--grant", "app/user/b", "--embedder", "none", "--tool-profile", "files");
    assertThat(error(call(b, "memory_file_view", Map.of("path", "/memories/notes.md")))).contains("does not exist");
    assertThat(ok(call(b, "memory_file_view", Map.of("path", "/memories")))).endsWith("\n0\t/memories");

    McpSyncClient ro = stdio("--store", store, "--grant", "app/user/a", "--embedder", "none", "--tool-profile", "files",
        "--mode", "read");
    assertThat(ro.listTools().tools()).extracting(McpSchema.Tool::name).containsExactly("memory_file_view");
    assertThat(ok(call(ro, "memory_file_view", Map.of("path", "/memories/notes.md")))).contains("cocoa at nine");
    for (String write : List.of("memory_file_create", "memory_file_str_replace", "memory_file_insert",
        "memory_file_delete", "memory_file_rename")) {
      assertThatThrownBy(() -> call(ro, write, Map.of("path", "/memories/notes.md")))
          .as(write).isInstanceOf(io.modelcontextprotocol.spec.McpError.class).hasMessageContaining("Unknown tool");
    }
    closeAll();

    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(dir.resolve("files.db")))
        .reasoner(new DeterministicReasoner()).build()) {
      Grants alice = Grants.of("app/user/a");
      MemoryFiles files = MemoryFiles.bind(engram, alice);
      MemoryEntry notes = files.entry("/memories/notes.md").orElseThrow();
      assertThat(notes.content()).isEqualTo("# Drinks\ntea at five\ncocoa at nine\ntea at noon\nwater all day");
      assertThat(notes.source()).isEqualTo("mcp");
      List<MemoryEvent> history = engram.history(alice, notes.entryId());
      assertThat(history).extracting(MemoryEvent::kind).containsExactly(EventKind.CREATE, EventKind.UPDATE,
          EventKind.UPDATE, EventKind.UPDATE);
      engram.rollback(alice, history.get(0).eventId());
      assertThat(files.view("/memories/notes.md").text()).endsWith("     1\ttea at five\n     2\tcoffee at nine\n"
          + "     3\ttea at noon");
    }
  }

  @Test
  void anUnknownToolProfileRefusesStartup() throws Exception {
    Process p = new ProcessBuilder(MemoryMcpServerIT.command("--store", "memory", "--grant", "app/user/a",
        "--tool-profile", "everything")).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(2);
    assertThat(out).contains("--tool-profile must be memory, files or all, was 'everything'");
  }
}

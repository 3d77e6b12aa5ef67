/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar, started as a child process and driven by the MCP SDK's own client. */
class MemoryMcpServerIT {
  static final ObjectMapper JSON = new ObjectMapper();
  static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);
  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final List<String> ALL_TOOLS = List.of("memory_read", "memory_search", "memory_write", "memory_correct",
      "memory_forget", "memory_boot", "memory_record_outcome", "memory_get", "memory_browse", "memory_domains",
      "memory_write_path", "memory_update", "memory_glossary_add", "memory_glossary_remove", "memory_move",
      "memory_capture");
  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  static String jar() {
    String jar = System.getProperty("engram.mcp.jar", "target/memory-mcp.jar");
    assertThat(Path.of(jar)).as("the packaged server (mvn package builds it)").exists();
    return Path.of(jar).toAbsolutePath().toString();
  }

  static List<String> command(String... args) {
    List<String> cmd = new ArrayList<>(List.of(javaBin(), "-jar", jar()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  McpSyncClient stdio(String... args) {
    return stdio(null, args);
  }

  McpSyncClient stdio(McpSchema.@org.jspecify.annotations.Nullable Implementation info, String... args) {
    List<String> cmd = command(args);
    ServerParameters params = ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build();
    StdioClientTransport transport = new StdioClientTransport(params, MAPPER);
    transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
    McpClient.SyncSpec spec = McpClient.sync(transport).requestTimeout(TIMEOUT).initializationTimeout(TIMEOUT);
    if (info != null) {
      spec.clientInfo(info);
    }
    McpSyncClient client = spec.build();
    open.add(client::closeGracefully);
    client.initialize();
    return client;
  }

  static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
    return client.callTool(new McpSchema.CallToolRequest(tool, args));
  }

  static JsonNode json(McpSchema.CallToolResult r) {
    return parse(((McpSchema.TextContent) r.content().get(0)).text());
  }

  static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new AssertionError(text, e);
    }
  }

  @Test
  void stdioServesToolsResourcesAndThePromptAndKeepsGrantsApart() {
    String store = "sqlite:" + dir.resolve("memory.db");
    McpSyncClient a = stdio("--store", store, "--grant", "app/user/a");
    assertThat(a.listTools().tools()).extracting(McpSchema.Tool::name).containsExactlyElementsOf(ALL_TOOLS);
    for (McpSchema.Tool t : a.listTools().tools()) {
      assertThat(t.inputSchema().get("additionalProperties")).isEqualTo(false);
      assertThat(((Map<?, ?>) t.inputSchema().get("properties")).keySet())
          .noneMatch(k -> k.toString().matches("(?i).*(namespace|scope|grant).*"));
    }

    McpSchema.CallToolResult written = call(a, "memory_write", Map.of("content", "Prefers metric units."));
    assertThat(written.isError()).isFalse();
    String ref = json(written).path("entry").path("ref").asText();
    JsonNode read = json(call(a, "memory_read", Map.of("topic", "general")));
    assertThat(read.path("entries").get(0).path("content").asText()).isEqualTo("Prefers metric units.");
    assertThat(read.path("entries").get(0).path("ref").asText()).isEqualTo(ref);
    JsonNode found = json(call(a, "memory_search", Map.of("query", "metric")));
    assertThat(found.path("results").get(0).path("ref").asText()).isEqualTo(ref);

    McpSchema.CallToolResult bad = call(a, "memory_write", Map.of("content", 5));
    assertThat(bad.isError()).isTrue();
    assertThat(json(bad).path("code").asText()).isEqualTo("invalid_arguments");
    McpSchema.CallToolResult namespaced = call(a, "memory_write", Map.of("content", "x", "namespace", "app/user/b"));
    assertThat(namespaced.isError()).isTrue();
    assertThat(json(namespaced).path("error").asText()).contains("namespace");

    McpSchema.ReadResourceResult scan = a.readResource(new McpSchema.ReadResourceRequest("memory://scan"));
    JsonNode scanJson = parse(((McpSchema.TextResourceContents) scan.contents().get(0)).text());
    assertThat(scanJson.path("topics").get(0).path("topic").asText()).isEqualTo("general");
    assertThat(scanJson.path("topics").get(0).path("entries").asInt()).isEqualTo(1);
    McpSchema.ReadResourceResult topic = a.readResource(new McpSchema.ReadResourceRequest("memory://topic/general"));
    assertThat(((McpSchema.TextResourceContents) topic.contents().get(0)).text()).contains("Prefers metric units.");
    assertThat(a.listResourceTemplates().resourceTemplates()).extracting(McpSchema.ResourceTemplate::uriTemplate)
        .containsExactly("memory://topic/{name}");

    McpSchema.GetPromptResult prompt = a.getPrompt(new McpSchema.GetPromptRequest("memory_context",
        Map.of("message", "which units does the user like?")));
    String block = ((McpSchema.TextContent) prompt.messages().get(0).content()).text();
    assertThat(block).contains("untrusted").contains("Prefers metric units.").contains("cite ");

    McpSyncClient b = stdio("--store", store, "--grant", "app/user/b");
    assertThat(json(call(b, "memory_read", Map.of("topic", "general"))).path("entries")).isEmpty();
    assertThat(json(call(b, "memory_search", Map.of("query", "metric units"))).path("results")).isEmpty();
    McpSchema.CallToolResult forget = call(b, "memory_forget", Map.of("ref", ref, "reason", "b wants it gone"));
    assertThat(forget.isError()).isTrue();
    assertThat(json(forget).path("code").asText()).isEqualTo("not_found");
    String bScan = ((McpSchema.TextResourceContents) b.readResource(new McpSchema.ReadResourceRequest("memory://scan"))
        .contents().get(0)).text();
    assertThat(parse(bScan).path("topics")).isEmpty();
    String bBlock = ((McpSchema.TextContent) b.getPrompt(new McpSchema.GetPromptRequest("memory_context",
        Map.of("message", "metric units"))).messages().get(0).content()).text();
    assertThat(bBlock).doesNotContain("metric").doesNotContain("app/user/a");
    assertThat(json(call(a, "memory_read", Map.of("topic", "general"))).path("entries")).hasSize(1);
  }

  @Test
  void bootComesAsAToolAndAPromptForTheClientsRuntime() {
    Path file = dir.resolve("boot.db");
    try (dev.engram.Engram engram = dev.engram.Engram.builder()
        .store(new dev.engram.store.sqlite.SqliteMemoryStore(file))
        .reasoner(new dev.engram.reasoner.DeterministicReasoner()).build()) {
      dev.engram.Grants alice = dev.engram.Grants.of("app/user/a");
      engram.write(alice, "Run the tests before every commit.", dev.engram.WriteOptions.builder().path("core://agent").build());
      engram.write(alice, "Hooks live in settings.json.", dev.engram.WriteOptions.builder().path("core://agent/claudecode").build());
      engram.write(alice, "Codex has no network.", dev.engram.WriteOptions.builder().path("core://agent/codex").build());
      engram.write(alice, "Webhook secrets rotate monthly.", dev.engram.WriteOptions.builder()
          .path("project://shop_webhooks").disclosure("When touching the webhook handler").build());
      engram.write(dev.engram.Grants.of("app/user/b"), "B's rules.", dev.engram.WriteOptions.builder().path("core://agent").build());
    }
    String store = "sqlite:" + file;
    // the runtime comes from the client's name in its initialize request
    McpSyncClient claude = stdio(new McpSchema.Implementation("claude-code", "2.0.1"), "--store", store, "--grant", "app/user/a");
    JsonNode boot = json(call(claude, "memory_boot", Map.of()));
    assertThat(boot.path("client").asText()).isEqualTo("claudecode");
    assertThat(boot.path("nodes").findValuesAsText("path")).containsExactly("core://agent", "core://agent/claudecode");
    assertThat(boot.path("recent").get(0).path("path").asText()).isEqualTo("project://shop_webhooks");
    assertThat(boot.toString()).doesNotContain("Webhook secrets").doesNotContain("B's rules").doesNotContain("app/user");
    assertThat(json(call(claude, "memory_boot", Map.of("client", "codex"))).path("nodes").findValuesAsText("content"))
        .containsExactly("Run the tests before every commit.", "Codex has no network.");
    McpSchema.CallToolResult bad = call(claude, "memory_boot", Map.of("client", "Vim!"));
    assertThat(bad.isError()).isTrue();
    assertThat(json(bad).path("code").asText()).isEqualTo("invalid_arguments");
    assertThat(json(call(claude, "memory_boot", Map.of("client", "codex", "scope", "app/user/b"))).path("code").asText())
        .isEqualTo("invalid_arguments");

    assertThat(claude.listPrompts().prompts()).extracting(McpSchema.Prompt::name).contains("memory_context", "memory_boot");
    String text = ((McpSchema.TextContent) claude.getPrompt(new McpSchema.GetPromptRequest("memory_boot", Map.of()))
        .messages().get(0).content()).text();
    assertThat(text).contains("Runtime: claudecode").contains("core://agent: Run the tests before every commit.")
        .contains("core://agent/claudecode: Hooks live in settings.json.").doesNotContain("Codex has no network")
        .contains("project://shop_webhooks | priority ").contains("| when When touching the webhook handler");
    String codexText = ((McpSchema.TextContent) claude.getPrompt(new McpSchema.GetPromptRequest("memory_boot",
        Map.of("client", "codex"))).messages().get(0).content()).text();
    assertThat(codexText).contains("Codex has no network").doesNotContain("Hooks live");
    assertThatThrownBy(() -> claude.getPrompt(new McpSchema.GetPromptRequest("memory_boot", Map.of("client", "Vim!"))))
        .isInstanceOf(io.modelcontextprotocol.spec.McpError.class).hasMessageContaining("client");

    // a client without a runtime of its own gets the generic boot; the operator can name the runtime
    McpSyncClient generic = stdio(new McpSchema.Implementation("some-editor", "1"), "--store", store, "--grant", "app/user/a",
        "--mode", "read");
    assertThat(json(call(generic, "memory_boot", Map.of())).path("nodes").findValuesAsText("path"))
        .containsExactly("core://agent");
    McpSyncClient fixed = stdio(new McpSchema.Implementation("claude-code", "2.0.1"), "--store", store, "--grant",
        "app/user/a", "--runtime", "codex");
    assertThat(json(call(fixed, "memory_boot", Map.of())).path("client").asText()).isEqualTo("codex");
  }

  @Test
  void everyToolCarriesItsAnnotationsAndThePathToolsWorkThroughTheClient() {
    Path file = dir.resolve("paths.db");
    String store = "sqlite:" + file;
    McpSyncClient a = stdio(new McpSchema.Implementation("codex-mcp-client", "1"), "--store", store, "--grant",
        "app/user/a", "--embedder", "none");
    Map<String, McpSchema.Tool> tools = new java.util.LinkedHashMap<>();
    a.listTools().tools().forEach(t -> tools.put(t.name(), t));
    assertThat(tools.keySet()).containsExactlyElementsOf(ALL_TOOLS);
    // read-only, destructive, idempotent
    Map<String, List<Boolean>> expected = new java.util.LinkedHashMap<>();
    for (String read : List.of("memory_read", "memory_search", "memory_boot", "memory_get", "memory_browse",
        "memory_domains")) {
      expected.put(read, List.of(true, false, true));
    }
    expected.put("memory_write", List.of(false, false, true));
    expected.put("memory_correct", List.of(false, true, true));
    expected.put("memory_forget", List.of(false, true, true));
    expected.put("memory_record_outcome", List.of(false, false, false));
    expected.put("memory_write_path", List.of(false, true, true));
    expected.put("memory_update", List.of(false, true, true));
    expected.put("memory_glossary_add", List.of(false, false, true));
    expected.put("memory_glossary_remove", List.of(false, true, true));
    expected.put("memory_move", List.of(false, true, true));
    expected.put("memory_capture", List.of(false, false, false));
    expected.forEach((name, hints) -> {
      McpSchema.ToolAnnotations an = tools.get(name).annotations();
      assertThat(an).as(name).isNotNull();
      assertThat(List.of(an.readOnlyHint(), an.destructiveHint(), an.idempotentHint())).as(name).isEqualTo(hints);
      assertThat(an.openWorldHint()).as(name).isFalse();
      assertThat(an.title()).as(name).isNotBlank().doesNotContain("memory_");
      assertThat(tools.get(name).title()).as(name).isEqualTo(an.title());
    });
    assertThat(tools.get("memory_search").title()).isEqualTo("Search memory");

    McpSchema.CallToolResult parent = call(a, "memory_write_path", Map.of("path", "project://checkout_api",
        "content", "The checkout API takes payments.", "disclosure", "When working on the checkout API"));
    assertThat(parent.isError()).as(parent.toString()).isFalse();
    McpSchema.CallToolResult orphan = call(a, "memory_write_path", Map.of("path", "project://billing/invoices",
        "content", "Invoices are PDFs."));
    assertThat(orphan.isError()).isTrue();
    assertThat(json(orphan).path("code").asText()).isEqualTo("parent_missing");
    McpSchema.CallToolResult written = call(a, "memory_write_path", Map.of("path", "project://checkout_api/webhooks",
        "content", "Refund webhooks are idempotent by event.id.", "priority", 1,
        "disclosure", "When changing refund webhooks", "glossary", List.of("stripe")));
    assertThat(written.isError()).as(written.toString()).isFalse();
    assertThat(json(written).path("outcome").asText()).isEqualTo("created");
    String ref = json(written).path("entry").path("ref").asText();
    assertThat(json(call(a, "memory_domains", Map.of())).path("domains").get(0).path("domain").asText()).isEqualTo("project");
    assertThat(json(call(a, "memory_browse", Map.of("path", "project://"))).path("children").get(0).path("path").asText())
        .isEqualTo("project://checkout_api");
    JsonNode got = json(call(a, "memory_get", Map.of("path", "project://checkout_api/webhooks")));
    assertThat(got.path("entries").get(0).path("ref").asText()).isEqualTo(ref);
    assertThat(got.path("entries").get(0).path("glossary").toString()).isEqualTo("[\"stripe\"]");
    JsonNode added = json(call(a, "memory_glossary_add", Map.of("ref", ref, "terms", List.of("refund webhook"))));
    ref = added.path("entry").path("ref").asText();
    ref = json(call(a, "memory_update", Map.of("ref", ref, "priority", 2))).path("entry").path("ref").asText();
    JsonNode moved = json(call(a, "memory_move", Map.of("ref", ref, "new_path", "project://payments_webhooks")));
    assertThat(moved.path("outcome").asText()).isEqualTo("moved");
    assertThat(json(call(a, "memory_capture", Map.of("text", "The user asked about refunds.", "speaker", "user")))
        .path("outcome").asText()).isEqualTo("captured");

    McpSchema.CallToolResult hostile = call(a, "memory_write_path", Map.of("path", "project://../../etc/passwd",
        "content", "x"));
    assertThat(hostile.isError()).isTrue();
    assertThat(json(hostile).path("code").asText()).isEqualTo("invalid_arguments");
    assertThat(json(hostile).path("error").asText()).contains("'..' segment");
    McpSchema.CallToolResult scoped = call(a, "memory_get", Map.of("path", "project://payments_webhooks",
        "scope", "app/user/b"));
    assertThat(json(scoped).path("code").asText()).isEqualTo("invalid_arguments");
    McpSchema.CallToolResult boot = call(a, "memory_write_path", Map.of("path", "core://agent", "content", "Run tests."));
    String bootRef = json(boot).path("entry").path("ref").asText();
    McpSchema.CallToolResult refused = call(a, "memory_move", Map.of("ref", bootRef, "new_path", "project://rules"));
    assertThat(refused.isError()).isTrue();
    assertThat(json(refused).path("code").asText()).isEqualTo("boot_node");

    // the server keeps running: an application may share the SQLite file
    try (dev.engram.Engram engram = dev.engram.Engram.builder()
        .store(new dev.engram.store.sqlite.SqliteMemoryStore(file))
        .reasoner(new dev.engram.reasoner.DeterministicReasoner()).build()) {
      dev.engram.Grants alice = dev.engram.Grants.of("app/user/a");
      List<dev.engram.MemoryEntry> entries = engram.list(alice);
      assertThat(entries).extracting(dev.engram.MemoryEntry::path)
          .containsExactlyInAnyOrder("project://checkout_api", "project://payments_webhooks", "core://agent");
      dev.engram.MemoryEntry webhooks = entries.stream().filter(e -> e.path().equals("project://payments_webhooks"))
          .findFirst()
          .orElseThrow();
      assertThat(webhooks.glossary()).containsExactly("stripe", "refund webhook");
      assertThat(webhooks.priority()).isEqualTo(2);
      assertThat(engram.history(alice, webhooks.entryId())).allSatisfy(ev -> {
        assertThat(ev.actor()).isEqualTo("mcp:codex");
        assertThat(ev.origin()).isEqualTo("mcp");
      });
      assertThat(engram.sources(alice, dev.engram.SourceQuery.defaults())).singleElement()
          .satisfies(r -> assertThat(r.speaker()).isEqualTo("user"));
    }
  }

  @Test
  void searchFindsMeaningWithE5ByDefaultAndWithMiniLmAndOnlyWordsWithNone() {
    String stored = "Keeps the bicycle in the blue shed.";
    String question = "where is my bike parked?"; // no word in common with the stored text
    Map<String, Integer> hitsBy = new java.util.LinkedHashMap<>();
    hitsBy.put("", 1);
    hitsBy.put("minilm", 1);
    hitsBy.put("none", 0);
    hitsBy.forEach((embedder, hits) -> {
      List<String> args = new ArrayList<>(List.of("--store", "memory", "--grant", "app/user/a"));
      if (!embedder.isEmpty()) {
        args.addAll(List.of("--embedder", embedder));
      }
      McpSyncClient client = stdio(args.toArray(String[]::new));
      assertThat(json(call(client, "memory_write", Map.of("content", stored))).path("outcome").asText()).isEqualTo("remembered");
      McpSchema.CallToolResult found = call(client, "memory_search", Map.of("query", question));
      assertThat(json(found).path("results")).as("--embedder " + embedder).hasSize(hits);
      String text = ((McpSchema.TextContent) found.content().get(0)).text();
      if (embedder.equals("none")) {
        assertThat(text).contains("full-text matches only");
      } else {
        assertThat(text).doesNotContain("full-text matches only");
      }
    });
  }

  @Test
  void readModeOffersReadToolsOnly() {
    McpSyncClient ro = stdio("--store", "memory", "--grant", "app/user/a", "--mode", "read");
    assertThat(ro.listTools().tools()).extracting(McpSchema.Tool::name).containsExactly("memory_read", "memory_search",
        "memory_boot", "memory_get", "memory_browse", "memory_domains");
    assertThat(ro.listTools().tools()).allSatisfy(t -> assertThat(t.annotations().readOnlyHint()).as(t.name()).isTrue());
    for (String write : List.of("memory_write_path", "memory_move", "memory_capture")) {
      assertThatThrownBy(() -> call(ro, write, Map.of("path", "project://x", "content", "x")))
          .as(write).isInstanceOf(io.modelcontextprotocol.spec.McpError.class).hasMessageContaining("Unknown tool");
    }
    assertThatThrownBy(() -> call(ro, "memory_write", Map.of("content", "x")))
        .isInstanceOf(io.modelcontextprotocol.spec.McpError.class).hasMessageContaining("Unknown tool");
    assertThat(json(call(ro, "memory_read", Map.of("topic", "general"))).path("entries")).isEmpty();
  }

  @Test
  void stdoutCarriesOnlyTheProtocolAndAnInitializeOnStdinIsAnswered() throws Exception {
    Process p = new ProcessBuilder(command("--store", "sqlite:" + dir.resolve("x.db"), "--grant", "app/user/a"))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    p.getOutputStream().write(("""
        {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
        {"jsonrpc":"2.0","method":"notifications/initialized"}
        {"jsonrpc":"2.0","id":2,"method":"tools/list"}
        """).getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    List<String> lines = out.lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(parse(lines.get(0)).path("result").path("serverInfo").path("name").asText()).isEqualTo("engram-memory");
    assertThat(parse(lines.get(1)).path("result").path("tools")).hasSize(16);
  }

  @Test
  void startupErrorsExitWithStatusTwoAndSayWhy() throws Exception {
    String[][] bad = {
        {"--store", "bogus", "--grant", "app/user/a"},
        {"--store", "memory"},
        {"--store", "memory", "--grant", "app//a"},
        {"--store", "sqlite:" + dir.resolve("no/such/dir/x.db"), "--grant", "a"},
        {"--store", "postgres:mysql://x", "--grant", "a"},
        {"--store", "memory", "--http", "8080"},
        {"--store", "memory", "--http", "8080", "--tokens", dir.resolve("missing.txt").toString()},
        {"--store", "memory", "--grant", "a", "--mode", "write"},
        {"--store", "memory", "--grant", "a", "--reasoner", "gpt"},
        {"--store", "memory", "--grant", "a", "--embedder", "bert"},
        {"--store", "memory", "--grant", "a", "--runtime", "Vim!"},
        {"--store", "memory", "--grant", "a", "--max-request-bytes", "10"},
        {"--store", "memory", "--http", "8080", "--tokens", dir.resolve("missing.txt").toString(), "--max-concurrent-per-token", "0"},
        {"--nonsense"},
    };
    for (String[] args : bad) {
      Process p = new ProcessBuilder(command(args)).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(String.join(" ", args) + ": " + err).isEqualTo(2);
      assertThat(out).as(String.join(" ", args)).isEmpty();
      assertThat(err).as(String.join(" ", args)).isNotBlank().doesNotContain("\tat ");
    }
  }

  @Test
  void aTokensFileLineThatIsNoTokenAndGrantsRefusesStartupInOneLineNamingIt() throws Exception {
    String token = "token-a-0123456789abcdef";
    Map<String, String> files = Map.of(
        "# operators\n" + token + " app/user/carol#team/blue\n", "line 2",
        token + " app/user/a\n\n\ntoken-b-0123456789abcdef app/user/b team//blue # bob\n", "line 4",
        token + " app/user/a # a\n" + token + " app/user/b\n", "line 2");
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path tokens = Files.writeString(dir.resolve("tokens-" + f.getValue().replace(' ', '-') + "-" + f.getKey().length()), f.getKey());
      Process p = new ProcessBuilder(command("--store", "memory", "--http", String.valueOf(freePort()), "--tokens",
          tokens.toString())).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(err).isEqualTo(2);
      assertThat(err.strip().lines()).as(err).hasSize(1);
      assertThat(err).contains(tokens + " " + f.getValue());
    }
  }

  @Test
  void httpMapsBearerTokensToGrantsAndRefusesRequestsWithoutOne() throws Exception {
    Path tokens = dir.resolve("tokens.txt");
    String tokenA = "token-a-0123456789abcdef";
    String tokenB = "token-b-0123456789abcdef";
    Files.writeString(tokens, "# operator tokens\n" + tokenA + " app/user/a\n" + tokenB + " app/user/b\n");
    int port = freePort();
    Process server = new ProcessBuilder(command("--store", "memory", "--http", String.valueOf(port),
        "--tokens", tokens.toString())).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    open.add(() -> {
      server.destroy();
      server.waitFor(20, TimeUnit.SECONDS);
    });
    awaitListening(port, server);
    String base = "http://127.0.0.1:" + port;

    McpSyncClient a = http(base, tokenA);
    assertThat(a.listTools().tools()).hasSize(16);
    String ref = json(call(a, "memory_write", Map.of("content", "Prefers metric units."))).path("entry").path("ref").asText();
    assertThat(json(call(a, "memory_read", Map.of("topic", "general"))).path("entries").get(0).path("ref").asText())
        .isEqualTo(ref);
    assertThat(json(call(a, "memory_search", Map.of("query", "metric"))).path("results")).hasSize(1);
    McpSchema.CallToolResult bad = call(a, "memory_read", Map.of("topic", "a", "topics", List.of("b")));
    assertThat(bad.isError()).isTrue();

    McpSyncClient b = http(base, tokenB);
    assertThat(json(call(b, "memory_read", Map.of("topic", "general"))).path("entries")).isEmpty();
    assertThat(json(call(b, "memory_correct", Map.of("ref", ref, "content", "Prefers imperial."))).path("code").asText())
        .isEqualTo("not_found");

    HttpClient raw = HttpClient.newHttpClient();
    String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(base + "/mcp"))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(init));
    assertThat(raw.send(post.copy().build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
    assertThat(raw.send(post.copy().header("Authorization", "Bearer not-a-known-token-at-all").build(),
        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
    assertThat(raw.send(post.copy().header("Authorization", "Bearer " + tokenA).header("Origin", "http://evil.example")
        .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(403);
    assertThat(raw.send(post.copy().header("Authorization", "Bearer " + tokenA).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    assertThatThrownBy(() -> http(base, "wrong-token-0123456789")).isNotNull();
  }

  McpSyncClient http(String base, String token) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp")
        .jsonMapper(MAPPER).requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build();
    McpSyncClient client = McpClient.sync(transport).requestTimeout(TIMEOUT).initializationTimeout(TIMEOUT).build();
    open.add(client::closeGracefully);
    client.initialize();
    return client;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  static void awaitListening(int port, Process server) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      assertThat(server.isAlive()).as("the HTTP server process exited early").isTrue();
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException e) {
        Thread.sleep(200);
      }
    }
    throw new AssertionError("the HTTP server did not listen on port " + port);
  }
}

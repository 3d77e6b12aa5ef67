/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.agent.AgentMemory;
import dev.engram.agent.AgentRuntime;
import dev.engram.agent.FileResult;
import dev.engram.agent.MemoryFiles;
import dev.engram.agent.MemoryResource;
import dev.engram.agent.ToolHints;
import dev.engram.agent.ToolResult;
import dev.engram.agent.ToolSpec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The MCP face of a {@link MemoryResource}: every tool, resource and prompt delegates to the
 * {@link AgentMemory} bound to the grants of the request, so the MCP server and any other framework
 * share one implementation.
 */
final class McpMemory {
  static final String SCAN_URI = "memory://scan";
  static final String TOPIC_PREFIX = "memory://topic/";
  static final String PROMPT = "memory_context";
  static final String BOOT_PROMPT = "memory_boot";
  /** The {@code _meta} key of a file result that carries the file's content hash. */
  static final String CONTENT_HASH_META = "dev.engram/content_hash";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MemoryResource resource;
  private final Function<McpSyncServerExchange, @Nullable Grants> grantsOf;
  private final McpJsonMapper mapper;
  private final @Nullable AgentRuntime fixedClient;
  private final @Nullable Function<Grants, MemoryFiles> files;

  /**
   * @param fixedClient the runtime the operator named for every client; null: each client's runtime
   *     is read from the name in its initialize request, else the generic {@link AgentRuntime#MCP}
   * @param files the memory file view of a request's grants, when the server offers the file tools
   */
  McpMemory(MemoryResource resource, Function<McpSyncServerExchange, @Nullable Grants> grantsOf, McpJsonMapper mapper,
      @Nullable AgentRuntime fixedClient, @Nullable Function<Grants, MemoryFiles> files) {
    this.resource = resource;
    this.grantsOf = grantsOf;
    this.mapper = mapper;
    this.fixedClient = fixedClient;
    this.files = files;
  }

  McpSyncServer build(McpServer.SyncSpecification<?> spec, String version, List<ToolSpec> tools,
      List<ToolSpec> fileTools) {
    List<SyncToolSpecification> all = new ArrayList<>(toolSpecs(tools));
    all.addAll(fileToolSpecs(fileTools));
    String instructions = tools.isEmpty() ? "" : "Long-term memory of this user and earlier work. Call memory_boot once "
        + "at the start of a session for the boot memory (working rules, persona, user preferences, this runtime's "
        + "rules). Read memory with memory_read and memory_search; remember new durable facts with memory_write. "
        + "Addressed memory lives at paths such as project://checkout_api/webhooks: memory_domains and memory_browse "
        + "walk them, memory_get opens one" + (resource.mode() == dev.engram.agent.MemoryMode.READ_WRITE
            ? ", memory_write_path writes one" : "") + ". The "
        + "prompt memory_context gives the memory for a message, the prompt memory_boot the boot memory.";
    if (!fileTools.isEmpty()) {
      instructions += (instructions.isEmpty() ? "" : " ") + "Memory files live below /memories: look with "
          + "memory_file_view on /memories first, and keep what you learn there with the other memory_file_* tools.";
    }
    return spec.serverInfo("engram-memory", version)
        .instructions(instructions)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).prompts(false).build())
        .validateToolInputs(false)
        .tools(all)
        .resources(scanResource())
        .resourceTemplates(topicTemplate())
        .prompts(contextPrompt(), bootPrompt())
        .build();
  }

  private List<SyncToolSpecification> toolSpecs(List<ToolSpec> tools) {
    List<SyncToolSpecification> out = new ArrayList<>();
    for (ToolSpec t : tools) {
      McpSchema.Tool tool = tool(t);
      out.add(SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
        AgentMemory agent = agent(exchange);
        ToolResult r = agent.call(request.name(), arguments(request.arguments()));
        return McpSchema.CallToolResult.builder().addTextContent(r.text()).isError(r.isError()).build();
      }).build());
    }
    return out;
  }

  private List<SyncToolSpecification> fileToolSpecs(List<ToolSpec> tools) {
    List<SyncToolSpecification> out = new ArrayList<>();
    for (ToolSpec t : tools) {
      McpSchema.Tool tool = tool(t);
      out.add(SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
        Grants grants = grantsOf.apply(exchange);
        if (grants == null || files == null) {
          throw McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST).message("unauthorized").build();
        }
        FileResult r = files.apply(grants).call(request.name(), arguments(request.arguments()));
        McpSchema.CallToolResult.Builder result = McpSchema.CallToolResult.builder().addTextContent(r.text())
            .isError(r.isError());
        if (r.contentHash() != null) {
          result.meta(Map.of(CONTENT_HASH_META, r.contentHash()));
        }
        return result.build();
      }).build());
    }
    return out;
  }

  /**
   * The MCP tool of a spec, with its hints as annotations. Every tool works on this server's memory
   * only, so none is open-world.
   */
  private McpSchema.Tool tool(ToolSpec t) {
    ToolHints h = t.hints();
    McpSchema.ToolAnnotations annotations = McpSchema.ToolAnnotations.builder().title(h.title())
        .readOnlyHint(h.readOnly()).destructiveHint(h.destructive()).idempotentHint(h.idempotent())
        .openWorldHint(false).build();
    return McpSchema.Tool.builder().name(t.name()).title(h.title()).description(t.description())
        .inputSchema(mapper, t.inputSchema()).annotations(annotations).build();
  }

  private static String arguments(@Nullable Map<String, Object> args) {
    if (args == null) {
      return "{}";
    }
    try {
      return JSON.writeValueAsString(args);
    } catch (JsonProcessingException e) {
      return "";
    }
  }

  private SyncResourceSpecification scanResource() {
    McpSchema.Resource r = McpSchema.Resource.builder().uri(SCAN_URI).name("memory-scan")
        .description("The remembered topics: name, number of entries, blurb; the core blurb as the profile.")
        .mimeType("application/json").build();
    return new SyncResourceSpecification(r, (exchange, request) -> new McpSchema.ReadResourceResult(
        List.of(new McpSchema.TextResourceContents(request.uri(), "application/json", agent(exchange).scan()))));
  }

  private SyncResourceTemplateSpecification topicTemplate() {
    McpSchema.ResourceTemplate t = McpSchema.ResourceTemplate.builder().uriTemplate(TOPIC_PREFIX + "{name}")
        .name("memory-topic").description("The entries remembered under one topic, newest first.")
        .mimeType("application/json").build();
    return new SyncResourceTemplateSpecification(t, (exchange, request) -> {
      String uri = request.uri();
      String name = uri.startsWith(TOPIC_PREFIX) ? decode(uri.substring(TOPIC_PREFIX.length())) : "";
      if (name == null || name.isEmpty()) {
        throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
            .message("expected memory://topic/{name} with a topic name").build();
      }
      ToolResult r = agent(exchange).call("memory_read", JSON.createObjectNode().put("topic", name).toString());
      if (r.isError()) {
        throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(r.text()).build();
      }
      return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, "application/json", r.text())));
    });
  }

  private static @Nullable String decode(String s) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private SyncPromptSpecification contextPrompt() {
    McpSchema.Prompt p = new McpSchema.Prompt(PROMPT, "What memory holds for a message: topic overview, preloaded "
        + "entries and the most relevant remembered items, labelled as untrusted data.",
        List.of(new McpSchema.PromptArgument("message", "The user's message.", true)));
    return new SyncPromptSpecification(p, (exchange, request) -> {
      Object message = request.arguments() == null ? null : request.arguments().get("message");
      if (!(message instanceof String text)) {
        throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
            .message("the prompt memory_context needs the argument 'message' (a string)").build();
      }
      String block = agent(exchange).instructions(text);
      return new McpSchema.GetPromptResult("Memory for this message",
          List.of(new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(block))));
    });
  }

  private SyncPromptSpecification bootPrompt() {
    String ids = String.join(", ", AgentRuntime.KNOWN.stream().map(AgentRuntime::id).toList());
    McpSchema.Prompt p = new McpSchema.Prompt(BOOT_PROMPT, "The boot memory for the start of a session: the boot nodes "
        + "(working rules, persona, user preferences, this runtime's rules) and the five most recently written "
        + "memories by path, priority and disclosure, labelled as remembered data.",
        List.of(new McpSchema.PromptArgument("client", "The runtime (" + ids + ", or another runtime id); default: this client's.", false)));
    return new SyncPromptSpecification(p, (exchange, request) -> {
      Object client = request.arguments() == null ? null : request.arguments().get("client");
      AgentRuntime runtime = null;
      if (client != null) {
        if (!(client instanceof String id)) {
          throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
              .message("the argument 'client' of the prompt memory_boot must be a runtime id such as " + ids).build();
        }
        try {
          runtime = AgentRuntime.of(id);
        } catch (InvalidInputException e) {
          throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
              .message("the argument 'client' of the prompt memory_boot must be a runtime id such as " + ids
                  + " (1 to 32 lowercase letters, digits or '-')").build();
        }
      }
      String block = agent(exchange).boot(runtime);
      return new McpSchema.GetPromptResult("Boot memory",
          List.of(new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(block))));
    });
  }

  private AgentMemory agent(McpSyncServerExchange exchange) {
    Grants grants = grantsOf.apply(exchange);
    if (grants == null) {
      throw McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST).message("unauthorized").build();
    }
    AgentRuntime client = fixedClient != null ? fixedClient : runtimeOf(exchange.getClientInfo());
    return client == null ? resource.bind(grants) : resource.bind(grants, client);
  }

  /**
   * The runtime an MCP client names in its initialize request ({@link AgentRuntime#known}), or none.
   *
   * @param info the client's implementation info, when it sent one
   * @return the runtime, or null
   */
  static @Nullable AgentRuntime runtimeOf(McpSchema.@Nullable Implementation info) {
    return info == null ? null : AgentRuntime.known(info.name());
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.InvalidInputException;
import dev.engram.agent.AgentMemory;
import dev.engram.agent.MemoryResource;
import dev.engram.agent.ToolSpec;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code memory_*} tools of a {@link MemoryResource} for LangChain4j AI services
 * ({@code AiServices.builder(...).toolProvider(provider)}). Each AI service call binds the tools to
 * the grants of its chat memory id ({@code @MemoryId}), as resolved by trusted code; the executors
 * run under those grants only. Results are the tools' compact JSON; bad arguments and unknown refs
 * come back to the model as {@code {"error": ...}} results.
 */
public final class EngramToolProvider implements ToolProvider {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MemoryResource resource;
  private final MemoryIdGrants grants;
  private final List<ToolSpecification> specifications;

  /**
   * Tools for {@code resource}, with grants from the chat memory id.
   *
   * @param resource the memory resource (mode, policies)
   * @param grants trusted code that maps a memory id to grants
   * @throws NullPointerException if {@code resource} or {@code grants} is null
   */
  public EngramToolProvider(MemoryResource resource, MemoryIdGrants grants) {
    this.resource = Objects.requireNonNull(resource, "resource");
    this.grants = Objects.requireNonNull(grants, "grants");
    List<ToolSpecification> specs = new ArrayList<>();
    for (ToolSpec spec : resource.tools()) {
      specs.add(specification(spec));
    }
    this.specifications = List.copyOf(specs);
  }

  /**
   * The tools as LangChain4j specifications (the same for every conversation).
   *
   * @return the specifications
   */
  public List<ToolSpecification> specifications() {
    return specifications;
  }

  /**
   * The tools bound to the request's conversation.
   *
   * @param request the AI service's request
   * @return the tools with their executors
   * @throws InvalidInputException if the request has no usable memory id (nothing runs then)
   * @throws NullPointerException if {@code request} is null
   */
  @Override
  public ToolProviderResult provideTools(ToolProviderRequest request) {
    Objects.requireNonNull(request, "request");
    Object memoryId = request.chatMemoryId();
    if (memoryId == null) {
      throw new InvalidInputException("memoryId", "the AI service call has no chat memory id");
    }
    AgentMemory memory = resource.bind(grants.resolve(memoryId));
    ToolProviderResult.Builder out = ToolProviderResult.builder();
    for (ToolSpecification spec : specifications) {
      String name = spec.name();
      out.add(spec, (call, id) -> {
        String args = call.arguments();
        return memory.call(name, args == null || args.isBlank() ? "{}" : args).text();
      });
    }
    return out.build();
  }

  private static ToolSpecification specification(ToolSpec spec) {
    try {
      ObjectNode json = JSON.createObjectNode();
      json.put("name", spec.name());
      json.put("description", spec.description());
      json.set("parameters", JSON.readTree(spec.inputSchema()));
      return ToolSpecification.fromJson(JSON.writeValueAsString(json));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("memory-agent gave tool " + spec.name() + " a schema that is not JSON", e);
    }
  }
}

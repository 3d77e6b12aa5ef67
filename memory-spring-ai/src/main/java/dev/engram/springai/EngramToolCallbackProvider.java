/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Grants;
import dev.engram.MemoryException;
import dev.engram.UntrustedText;
import dev.engram.agent.AgentMemory;
import dev.engram.agent.MemoryResource;
import dev.engram.agent.ToolResult;
import dev.engram.agent.ToolSpec;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The {@code memory_*} tools of a {@link MemoryResource} as Spring AI {@link ToolCallback}s. Each call
 * runs under grants that trusted code supplies, never the model:
 *
 * <ul>
 *   <li>{@link #of(MemoryResource, Supplier)}: a supplier asked on every call (e.g. from the request's
 *       security context);
 *   <li>{@link #fromToolContext(MemoryResource, GrantsResolver)}: the conversation id that the
 *       application put into the tool context under {@link ChatMemory#CONVERSATION_ID}
 *       ({@code .toolContext(Map.of(ChatMemory.CONVERSATION_ID, userId))}), turned into grants by a
 *       {@link GrantsResolver}; {@link #fromToolContext(MemoryResource, GrantsResolver, String)} names
 *       another key.
 * </ul>
 *
 * <p>Results are the tools' compact JSON; failures (bad arguments, unknown refs, missing grants) are
 * returned to the model as {@code {"error": ...}} results, never thrown.
 */
public final class EngramToolCallbackProvider implements ToolCallbackProvider {
  private static final Logger LOG = LoggerFactory.getLogger(EngramToolCallbackProvider.class);

  private final MemoryResource resource;
  private final Function<@Nullable ToolContext, Grants> grants;
  private final ToolCallback[] callbacks;

  private EngramToolCallbackProvider(MemoryResource resource, Function<@Nullable ToolContext, Grants> grants) {
    this.resource = resource;
    this.grants = grants;
    List<ToolSpec> specs = resource.tools();
    this.callbacks = specs.stream().map(Callback::new).toArray(ToolCallback[]::new);
  }

  /**
   * Tools whose grants come from a supplier asked on every call.
   *
   * @param resource the memory resource (mode, policies)
   * @param grants trusted code that returns the current caller's grants
   * @return the provider
   * @throws NullPointerException if {@code resource} or {@code grants} is null
   */
  public static EngramToolCallbackProvider of(MemoryResource resource, Supplier<Grants> grants) {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(grants, "grants");
    return new EngramToolCallbackProvider(resource, context -> Objects.requireNonNull(grants.get(), "grants supplied"));
  }

  /**
   * Tools whose grants come from the conversation id in the tool context.
   *
   * @param resource the memory resource (mode, policies)
   * @param resolver trusted code that maps a conversation id to grants
   * @return the provider
   */
  public static EngramToolCallbackProvider fromToolContext(MemoryResource resource, GrantsResolver resolver) {
    return fromToolContext(resource, resolver, ChatMemory.CONVERSATION_ID);
  }

  /**
   * Tools whose grants come from one key of the tool context.
   *
   * @param resource the memory resource (mode, policies)
   * @param resolver trusted code that maps the key's value to grants
   * @param key the tool-context key the application sets
   * @return the provider
   * @throws NullPointerException if {@code resource}, {@code resolver} or {@code key} is null
   */
  public static EngramToolCallbackProvider fromToolContext(MemoryResource resource, GrantsResolver resolver, String key) {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(resolver, "resolver");
    Objects.requireNonNull(key, "key");
    return new EngramToolCallbackProvider(resource, context -> {
      Object value = context == null ? null : context.getContext().get(key);
      if (value == null) {
        throw new MissingGrants("the application did not put '" + key + "' into the tool context");
      }
      return resolver.resolve(value.toString());
    });
  }

  @Override
  public ToolCallback[] getToolCallbacks() {
    return callbacks.clone();
  }

  /** Raised inside a call when trusted code supplied no grants; reported to the model as an error result. */
  private static final class MissingGrants extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MissingGrants(String message) {
      super(message, null, false, false);
    }
  }

  private final class Callback implements ToolCallback {
    private final ToolSpec spec;
    private final ToolDefinition definition;

    Callback(ToolSpec spec) {
      this.spec = spec;
      this.definition = ToolDefinition.builder()
          .name(spec.name()).description(spec.description()).inputSchema(spec.inputSchema()).build();
    }

    @Override
    public ToolDefinition getToolDefinition() {
      return definition;
    }

    @Override
    public String call(String toolInput) {
      return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, @Nullable ToolContext toolContext) {
      AgentMemory memory;
      try {
        memory = resource.bind(grants.apply(toolContext));
      } catch (MissingGrants | MemoryException e) {
        // the message may quote the caller's key: one line, clipped, so it cannot forge log lines
        LOG.warn("{}: no grants for this call: {}", spec.name(), logged(e.getMessage()));
        return ToolResult.error(errorJson("memory is not available for this conversation", "no_grants")).text();
      }
      return memory.call(spec.name(), toolInput == null ? "" : toolInput).text();
    }
  }

  /** Text that may quote caller input, as a log line shows it: on one line, at most 300 characters. */
  static String logged(@Nullable String text) {
    String one = UntrustedText.inline(String.valueOf(text));
    return one.length() <= 300 ? one : one.substring(0, 300) + "…";
  }

  private static String errorJson(String message, String code) {
    return "{\"error\":\"" + message + "\",\"code\":\"" + code + "\"}";
  }
}

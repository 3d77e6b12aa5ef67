/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.SourceRecord;
import dev.engram.agent.AgentMemory;
import dev.engram.agent.MemoryResource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.AdvisorChain;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * Adds the memory instructions block of {@code memory-agent} (topic overview with autoScan, preloaded
 * entries with preload, and a prepared, cited context for the user's message) to the system message
 * of every request. The block is bounded by the resource's settings and labels remembered text as
 * untrusted data.
 *
 * <p>Grants come from the advisor context: the application sets the conversation id
 * ({@code .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, userId))}) and a {@link GrantsResolver}
 * maps it; {@link Builder#contextKey(String)} names another key. The advisor also puts the key into
 * the request's tool context (unless the application set it there already), so an
 * {@link EngramToolCallbackProvider#fromToolContext} provider in the same request runs under the
 * same grants. A request without the key fails
 * with an {@link InvalidInputException} naming it: memory is never read under guessed grants.
 *
 * <p>With {@link Builder#captureUserTurns(boolean)} the advisor also captures each user message as a
 * source (session: the conversation id, speaker {@code user}) for {@link dev.engram.Engram#flush} to
 * turn into memories. An application whose chat memory is an {@link EngramChatMemoryRepository} needs
 * no write-back: the repository captures every message already. The conversation id is then also the
 * source session, in the same id alphabet as {@link GrantsResolver#template(String)}
 * ({@value dev.engram.Grants.Template#ID_ALPHABET}); a request with another fails with an
 * {@link InvalidInputException} before the model is called.
 */
public final class EngramMemoryAdvisor implements BaseAdvisor {
  /** Runs early, so that later advisors (and the model) see the block. */
  public static final int DEFAULT_ORDER = org.springframework.core.Ordered.HIGHEST_PRECEDENCE + 1000;

  private final MemoryResource resource;
  private final GrantsResolver resolver;
  private final String contextKey;
  private final int order;
  private final boolean captureUserTurns;

  private EngramMemoryAdvisor(Builder b) {
    this.resource = b.resource;
    this.resolver = b.resolver;
    this.contextKey = b.contextKey;
    this.order = b.order;
    this.captureUserTurns = b.captureUserTurns;
  }

  /**
   * Starts an advisor.
   *
   * @param resource the memory resource (mode, autoScan, preload, context budget)
   * @param resolver trusted code that maps the conversation id to grants
   * @return a builder
   */
  public static Builder builder(MemoryResource resource, GrantsResolver resolver) {
    return new Builder(resource, resolver);
  }

  @Override
  public ChatClientRequest before(ChatClientRequest request, AdvisorChain chain) {
    Object key = request.context().get(contextKey);
    if (key == null) {
      throw new InvalidInputException(contextKey,
          "is not in the advisor context; set it with .advisors(a -> a.param(\"" + contextKey + "\", id))");
    }
    Grants grants = resolver.resolve(key.toString());
    UserMessage user = request.prompt().getUserMessage();
    String message = user == null || user.getText() == null ? "" : user.getText();
    AgentMemory memory = resource.bind(grants);
    String block = memory.instructions(message);
    if (captureUserTurns && !message.isBlank()) {
      memory.capture(SourceRecord.of(key.toString(), "user", message));
    }
    Prompt prompt = request.prompt().augmentSystemMessage(system -> {
      String existing = system.getText() == null ? "" : system.getText();
      return system.mutate().text(existing.isBlank() ? block : existing + "\n\n" + block).build();
    });
    if (prompt.getOptions() instanceof ToolCallingChatOptions options) {
      // the memory tools of this request run under the same conversation id
      Map<String, Object> toolContext = new HashMap<>(options.getToolContext());
      toolContext.putIfAbsent(contextKey, key);
      options.setToolContext(toolContext);
    }
    return request.mutate().prompt(prompt).build();
  }

  @Override
  public ChatClientResponse after(ChatClientResponse response, AdvisorChain chain) {
    return response;
  }

  @Override
  public int getOrder() {
    return order;
  }

  /** Settings of an {@link EngramMemoryAdvisor}. */
  public static final class Builder {
    private final MemoryResource resource;
    private final GrantsResolver resolver;
    private String contextKey = ChatMemory.CONVERSATION_ID;
    private int order = DEFAULT_ORDER;
    private boolean captureUserTurns;

    private Builder(MemoryResource resource, GrantsResolver resolver) {
      this.resource = Objects.requireNonNull(resource, "resource");
      this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    /**
     * The advisor-context key holding the conversation id (default {@link ChatMemory#CONVERSATION_ID}).
     *
     * @param key a non-blank key
     * @return this builder
     * @throws InvalidInputException if the key is blank
     * @throws NullPointerException if {@code key} is null
     */
    public Builder contextKey(String key) {
      Objects.requireNonNull(key, "contextKey");
      if (key.isBlank()) {
        throw new InvalidInputException("contextKey", "is blank");
      }
      this.contextKey = key;
      return this;
    }

    /**
     * The advisor order (default {@link #DEFAULT_ORDER}).
     *
     * @param order the order
     * @return this builder
     */
    public Builder order(int order) {
      this.order = order;
      return this;
    }

    /**
     * Whether each user message is also captured as a source of the conversation (default false).
     *
     * @param enabled true to capture user turns
     * @return this builder
     */
    public Builder captureUserTurns(boolean enabled) {
      this.captureUserTurns = enabled;
      return this;
    }

    /**
     * Builds the advisor.
     *
     * @return the advisor
     */
    public EngramMemoryAdvisor build() {
      return new EngramMemoryAdvisor(this);
    }
  }
}

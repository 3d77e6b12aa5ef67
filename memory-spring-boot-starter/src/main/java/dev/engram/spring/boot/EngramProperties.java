/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spring.boot;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code engram.*} settings the auto-configuration reads. */
@ConfigurationProperties(prefix = "engram")
public class EngramProperties {
  /**
   * Where memory lives: "memory" (in process, lost on exit), "sqlite:FILE" (one SQLite file; needs
   * dev.engram:memory-store-sqlite) or "postgres:URL" with a jdbc:postgresql:// or postgresql:// URL (needs
   * dev.engram:memory-store-postgres); the same spellings as the command line's and the MCP server's --store.
   */
  private String store = "memory";

  /**
   * The namespace template that turns a conversation id into grants, e.g. "app/user/{id}". The id
   * must be 1-128 of ASCII letters, digits, '_', '.', ':', '-', starting with a letter or digit, and
   * Spring AI's default conversation id "default" is refused. Without it, no GrantsResolver is defined
   * unless the application defines one.
   */
  private @Nullable String grantsResolver;

  /** The reasoner that files writes: "deterministic" (no model) or "llm" (LlmReasoner.fromEnvironment()). */
  private String reasoner = "deterministic";

  /**
   * The embedder for vector and hybrid search: "e5" (offline e5-small-v2, dev.engram:memory-embeddings-e5,
   * which the starter brings), "minilm" (offline all-MiniLM-L6-v2; needs dev.engram:memory-embeddings-minilm),
   * "openai" (any /v1/embeddings endpoint, see engram.openai.*; needs dev.engram:memory-embeddings-http),
   * "auto" (the one whose vectors the store already holds; e5 when it holds none) or "none" (full-text search
   * only).
   */
  private String embedder = "e5";

  /** Which memory tools agents get: "read-write" (read, search, write, correct, forget) or "read". */
  private String mode = "read-write";

  /** Whether the instructions block starts with an overview of the visible topics. */
  private boolean autoScan = false;

  /** The UTF-8 byte budget of the prepared context inside the instructions block. */
  private int contextBytes = 6000;

  /** Which full entries the instructions block inlines. */
  private final Preload preload = new Preload();

  /** The OpenAI-compatible embeddings endpoint used when engram.embedder=openai. */
  private final OpenAi openai = new OpenAi();

  /** A VectorStore over Engram for fixed grants. */
  private final VectorStore vectorStore = new VectorStore();

  /** Whether the memory advisor also captures each user message as a source of the conversation. */
  private boolean captureUserTurns = false;

  /** Settings of the chat memory repository over captured sources. */
  private final ChatMemory chatMemory = new ChatMemory();

  private final Maintenance maintenance = new Maintenance();

  /**
   * The store setting.
   *
   * @return the current value
   */
  public String getStore() {
    return store;
  }

  /**
   * Sets the store setting.
   *
   * @param store the new value
   */
  public void setStore(String store) {
    this.store = store;
  }

  /**
   * The grants-resolver setting.
   *
   * @return the current value
   */
  public @Nullable String getGrantsResolver() {
    return grantsResolver;
  }

  /**
   * Sets the grants-resolver setting.
   *
   * @param grantsResolver the new value
   */
  public void setGrantsResolver(@Nullable String grantsResolver) {
    this.grantsResolver = grantsResolver;
  }

  /**
   * The reasoner setting.
   *
   * @return the current value
   */
  public String getReasoner() {
    return reasoner;
  }

  /**
   * Sets the reasoner setting.
   *
   * @param reasoner the new value
   */
  public void setReasoner(String reasoner) {
    this.reasoner = reasoner;
  }

  /**
   * The embedder setting.
   *
   * @return the current value
   */
  public String getEmbedder() {
    return embedder;
  }

  /**
   * Sets the embedder setting.
   *
   * @param embedder the new value
   */
  public void setEmbedder(String embedder) {
    this.embedder = embedder;
  }

  /**
   * The mode setting.
   *
   * @return the current value
   */
  public String getMode() {
    return mode;
  }

  /**
   * Sets the mode setting.
   *
   * @param mode the new value
   */
  public void setMode(String mode) {
    this.mode = mode;
  }

  /**
   * The auto-scan setting.
   *
   * @return the current value
   */
  public boolean isAutoScan() {
    return autoScan;
  }

  /**
   * Sets the auto-scan setting.
   *
   * @param autoScan the new value
   */
  public void setAutoScan(boolean autoScan) {
    this.autoScan = autoScan;
  }

  /**
   * The context-bytes setting.
   *
   * @return the current value
   */
  public int getContextBytes() {
    return contextBytes;
  }

  /**
   * Sets the context-bytes setting.
   *
   * @param contextBytes the new value
   */
  public void setContextBytes(int contextBytes) {
    this.contextBytes = contextBytes;
  }

  /**
   * The preload setting.
   *
   * @return the current value
   */
  public Preload getPreload() {
    return preload;
  }

  /**
   * The openai setting.
   *
   * @return the current value
   */
  public OpenAi getOpenai() {
    return openai;
  }

  /**
   * The vector-store setting.
   *
   * @return the current value
   */
  public VectorStore getVectorStore() {
    return vectorStore;
  }

  /**
   * The capture-user-turns setting.
   *
   * @return the current value
   */
  public boolean isCaptureUserTurns() {
    return captureUserTurns;
  }

  /**
   * Sets the capture-user-turns setting.
   *
   * @param captureUserTurns the new value
   */
  public void setCaptureUserTurns(boolean captureUserTurns) {
    this.captureUserTurns = captureUserTurns;
  }

  /**
   * The chat-memory setting.
   *
   * @return the current value
   */
  public ChatMemory getChatMemory() {
    return chatMemory;
  }

  /**
   * The maintenance section.
   *
   * @return the settings of the scheduled maintenance runner
   */
  public Maintenance getMaintenance() {
    return maintenance;
  }

  /**
   * Settings of scheduled maintenance ({@code EngramOperator.startMaintenance}): off unless
   * {@code engram.maintenance.grants} names the namespaces to curate and flush.
   */
  public static class Maintenance {
    /** The namespaces to maintain, each its own grants; none (the default) starts no runner. */
    private java.util.List<String> grants = new java.util.ArrayList<>();

    /** The time from the end of one run to the start of the next. */
    private java.time.Duration interval = dev.engram.MaintenanceOptions.DEFAULT_INTERVAL;

    /**
     * The grants setting.
     *
     * @return the namespaces to maintain
     */
    public java.util.List<String> getGrants() {
      return grants;
    }

    /**
     * Sets the grants setting.
     *
     * @param grants the namespaces to maintain
     */
    public void setGrants(java.util.List<String> grants) {
      this.grants = grants;
    }

    /**
     * The interval setting.
     *
     * @return the time between runs
     */
    public java.time.Duration getInterval() {
      return interval;
    }

    /**
     * Sets the interval setting.
     *
     * @param interval the time between runs
     */
    public void setInterval(java.time.Duration interval) {
      this.interval = interval;
    }
  }

  /** Settings of the chat memory repository ({@code EngramChatMemoryRepository}). */
  public static class ChatMemory {
    /** Whether a ChatMemoryRepository over captured sources is defined (with a grants resolver). */
    private boolean enabled = true;

    /**
     * The enabled setting.
     *
     * @return the current value
     */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets the enabled setting.
     *
     * @param enabled the new value
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** Settings of the preload section of the instructions block (none by default). */
  public static class Preload {
    /** Inline the core topic (the always-load profile). */
    private boolean core = false;
    /** Inline every active visible entry, core first. */
    private boolean all = false;
    /** Further topics to inline, in order. */
    private java.util.List<String> topics = new java.util.ArrayList<>();
    /** The most entries inlined. */
    private int limit = dev.engram.agent.Preload.DEFAULT_LIMIT;
    /** The most characters of the rendered preload section. */
    private int maxChars = dev.engram.agent.Preload.DEFAULT_MAX_CHARS;

    /**
     * The core setting.
     *
     * @return the current value
     */
    public boolean isCore() {
      return core;
    }

    /**
     * Sets the core setting.
     *
     * @param core the new value
     */
    public void setCore(boolean core) {
      this.core = core;
    }

    /**
     * The all setting.
     *
     * @return the current value
     */
    public boolean isAll() {
      return all;
    }

    /**
     * Sets the all setting.
     *
     * @param all the new value
     */
    public void setAll(boolean all) {
      this.all = all;
    }

    /**
     * The topics setting.
     *
     * @return the current value
     */
    public java.util.List<String> getTopics() {
      return topics;
    }

    /**
     * Sets the topics setting.
     *
     * @param topics the new value
     */
    public void setTopics(java.util.List<String> topics) {
      this.topics = topics;
    }

    /**
     * The limit setting.
     *
     * @return the current value
     */
    public int getLimit() {
      return limit;
    }

    /**
     * Sets the limit setting.
     *
     * @param limit the new value
     */
    public void setLimit(int limit) {
      this.limit = limit;
    }

    /**
     * The max-chars setting.
     *
     * @return the current value
     */
    public int getMaxChars() {
      return maxChars;
    }

    /**
     * Sets the max-chars setting.
     *
     * @param maxChars the new value
     */
    public void setMaxChars(int maxChars) {
      this.maxChars = maxChars;
    }
  }

  /** Settings of the OpenAI-compatible embedder. */
  public static class OpenAi {
    /** The API base URL, up to and including /v1. */
    private String baseUrl = "https://api.openai.com/v1";
    /** The bearer token; never logged. */
    private @Nullable String apiKey;
    /** The embedding model name. */
    private String model = "text-embedding-3-small";
    /** The vector dimension the model returns. */
    private int dimension = 1536;

    /**
     * The base-url setting.
     *
     * @return the current value
     */
    public String getBaseUrl() {
      return baseUrl;
    }

    /**
     * Sets the base-url setting.
     *
     * @param baseUrl the new value
     */
    public void setBaseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
    }

    /**
     * The api-key setting.
     *
     * @return the current value
     */
    public @Nullable String getApiKey() {
      return apiKey;
    }

    /**
     * Sets the api-key setting.
     *
     * @param apiKey the new value
     */
    public void setApiKey(@Nullable String apiKey) {
      this.apiKey = apiKey;
    }

    /**
     * The model setting.
     *
     * @return the current value
     */
    public String getModel() {
      return model;
    }

    /**
     * Sets the model setting.
     *
     * @param model the new value
     */
    public void setModel(String model) {
      this.model = model;
    }

    /**
     * The dimension setting.
     *
     * @return the current value
     */
    public int getDimension() {
      return dimension;
    }

    /**
     * Sets the dimension setting.
     *
     * @param dimension the new value
     */
    public void setDimension(int dimension) {
      this.dimension = dimension;
    }
  }

  /** Settings of the auto-configured EngramVectorStore. */
  public static class VectorStore {
    /** The namespace the documents live in; the VectorStore bean is defined only when this is set. */
    private @Nullable String namespace;
    /** The topic documents are filed under. */
    private String topic = "documents";

    /**
     * The namespace setting.
     *
     * @return the current value
     */
    public @Nullable String getNamespace() {
      return namespace;
    }

    /**
     * Sets the namespace setting.
     *
     * @param namespace the new value
     */
    public void setNamespace(@Nullable String namespace) {
      this.namespace = namespace;
    }

    /**
     * The topic setting.
     *
     * @return the current value
     */
    public String getTopic() {
      return topic;
    }

    /**
     * Sets the topic setting.
     *
     * @param topic the new value
     */
    public void setTopic(String topic) {
      this.topic = topic;
    }
  }
}

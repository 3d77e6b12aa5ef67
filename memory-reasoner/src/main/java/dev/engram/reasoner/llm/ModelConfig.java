/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import dev.engram.InvalidInputException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One model behind one wire format: provider, model name, base URL, API key and output settings.
 * Immutable; each setter returns a new config.
 *
 * <pre>{@code
 * ModelConfig.openAiCompatible("gpt-4.1-mini")                         // OPENAI_API_KEY, https://api.openai.com/v1
 * ModelConfig.openAiCompatible("llama3.1").baseUrl("http://127.0.0.1:11434/v1")  // Ollama, no key needed
 * ModelConfig.anthropic("claude-haiku-4-5")                            // ANTHROPIC_API_KEY, https://api.anthropic.com
 * }</pre>
 *
 * <p>When no key is set explicitly, {@link LlmReasoner} reads the provider's variable
 * ({@code OPENAI_API_KEY} or {@code ANTHROPIC_API_KEY}) when it is built. A missing key does not fail
 * the build: the first call fails with an {@link LlmException} that names the variable. A loopback or
 * private-network base URL needs no key.
 */
public final class ModelConfig {
  /** OpenAI's API. */
  public static final String OPENAI_BASE_URL = "https://api.openai.com/v1";
  /** Anthropic's API (requests go to {@code /v1/messages} below it). */
  public static final String ANTHROPIC_BASE_URL = "https://api.anthropic.com";
  /** Output tokens allowed per call unless set. */
  public static final int DEFAULT_MAX_OUTPUT_TOKENS = 1024;

  private final Provider provider;
  private final String model;
  private final URI baseUrl;
  private final @Nullable String apiKey;
  private final StructuredOutput structuredOutput;
  private final int maxOutputTokens;

  private ModelConfig(Provider provider, String model, URI baseUrl, @Nullable String apiKey,
      StructuredOutput structuredOutput, int maxOutputTokens) {
    this.provider = provider;
    this.model = model;
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.structuredOutput = structuredOutput;
    this.maxOutputTokens = maxOutputTokens;
  }

  /**
   * A model behind {@code POST {baseUrl}/chat/completions}, by default OpenAI's.
   *
   * @param model the model name sent in each request
   * @return the config
   * @throws InvalidInputException if the name is blank
   */
  public static ModelConfig openAiCompatible(String model) {
    return new ModelConfig(Provider.OPENAI_COMPATIBLE, modelName(model), uri(OPENAI_BASE_URL), null,
        StructuredOutput.AUTO, DEFAULT_MAX_OUTPUT_TOKENS);
  }

  /**
   * A model behind Anthropic's {@code POST {baseUrl}/v1/messages}.
   *
   * @param model the model name sent in each request
   * @return the config
   * @throws InvalidInputException if the name is blank
   */
  public static ModelConfig anthropic(String model) {
    return new ModelConfig(Provider.ANTHROPIC, modelName(model), uri(ANTHROPIC_BASE_URL), null,
        StructuredOutput.AUTO, DEFAULT_MAX_OUTPUT_TOKENS);
  }

  /**
   * @param baseUrl an http or https URL, e.g. {@code http://127.0.0.1:11434/v1}; a trailing slash is dropped
   * @return a copy with this base URL
   * @throws InvalidInputException if it is not an absolute http(s) URL
   */
  public ModelConfig baseUrl(String baseUrl) {
    return new ModelConfig(provider, model, uri(baseUrl), apiKey, structuredOutput, maxOutputTokens);
  }

  /**
   * @param apiKey the key to send; overrides the provider's environment variable
   * @return a copy with this key
   * @throws InvalidInputException if it is blank or contains whitespace
   * @throws NullPointerException if {@code apiKey} is null
   */
  public ModelConfig apiKey(String apiKey) {
    Objects.requireNonNull(apiKey, "apiKey");
    if (apiKey.isBlank() || !apiKey.strip().equals(apiKey) || apiKey.chars().anyMatch(Character::isWhitespace)) {
      throw new InvalidInputException("apiKey", "is blank or contains whitespace");
    }
    return new ModelConfig(provider, model, baseUrl, apiKey, structuredOutput, maxOutputTokens);
  }

  /**
   * @param mode how an OpenAI-compatible server is asked for JSON (ignored for Anthropic)
   * @return a copy with this mode
   * @throws NullPointerException if {@code mode} is null
   */
  public ModelConfig structuredOutput(StructuredOutput mode) {
    return new ModelConfig(provider, model, baseUrl, apiKey, Objects.requireNonNull(mode, "structuredOutput"),
        maxOutputTokens);
  }

  /**
   * @param tokens output tokens allowed per call, 64..32768
   * @return a copy with this limit
   * @throws InvalidInputException if out of range
   */
  public ModelConfig maxOutputTokens(int tokens) {
    if (tokens < 64 || tokens > 32_768) {
      throw new InvalidInputException("maxOutputTokens", "must be between 64 and 32768, was " + tokens);
    }
    return new ModelConfig(provider, model, baseUrl, apiKey, structuredOutput, tokens);
  }

  /** @return the wire format */
  public Provider provider() {
    return provider;
  }

  /** @return the model name */
  public String model() {
    return model;
  }

  /** @return the base URL, without a trailing slash */
  public URI baseUrl() {
    return baseUrl;
  }

  /** @return the key set explicitly, or null when the environment variable is to be used */
  public @Nullable String apiKey() {
    return apiKey;
  }

  /** @return how JSON is requested from an OpenAI-compatible server */
  public StructuredOutput structuredOutput() {
    return structuredOutput;
  }

  /** @return output tokens allowed per call */
  public int maxOutputTokens() {
    return maxOutputTokens;
  }

  /** @return the environment variable that holds this provider's key */
  public String apiKeyVariable() {
    return provider == Provider.ANTHROPIC ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  }

  /** @return the environment variable that overrides this provider's base URL */
  public String baseUrlVariable() {
    return provider == Provider.ANTHROPIC ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL";
  }

  /**
   * Whether the base URL names this machine or a private network (loopback, site-local, link-local,
   * {@code localhost}, {@code *.local}, {@code host.docker.internal}); such servers need no key.
   * Only literal addresses are inspected; no name is resolved.
   *
   * @return true for a local server
   */
  public boolean isLocal() {
    String host = baseUrl.getHost();
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.equals("localhost") || h.endsWith(".localhost") || h.endsWith(".local") || h.equals("host.docker.internal")) {
      return true;
    }
    if (h.matches("[0-9.]+") || h.contains(":")) {
      try {
        InetAddress a = InetAddress.getByName(h);
        return a.isLoopbackAddress() || a.isSiteLocalAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress();
      } catch (UnknownHostException e) {
        return false;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return provider + " " + model + " at " + baseUrl + (apiKey != null ? " (key set)" : "");
  }

  private static String modelName(String model) {
    Objects.requireNonNull(model, "model");
    if (model.isBlank() || model.length() > 256) {
      throw new InvalidInputException("model", "must be 1..256 non-blank characters");
    }
    return model.strip();
  }

  private static URI uri(String raw) {
    Objects.requireNonNull(raw, "baseUrl");
    String s = raw.strip();
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    try {
      URI u = new URI(s);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null
          || u.getRawQuery() != null || u.getRawFragment() != null || u.getRawUserInfo() != null) {
        throw new InvalidInputException("baseUrl",
            "'" + raw + "' is not an http(s) URL with a host and without query, fragment or user info");
      }
      return u;
    } catch (URISyntaxException e) {
      throw new InvalidInputException("baseUrl", "'" + raw + "' is not a URL: " + e.getReason());
    }
  }
}

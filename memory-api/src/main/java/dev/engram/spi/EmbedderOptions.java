/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Settings an {@link EmbedderProvider} creates its embedder with, as named strings (the way the Spring Boot
 * starter's {@code engram.openai.*} properties arrive). The offline embedders need none; the HTTP embedder
 * reads {@code base-url}, {@code api-key}, {@code model} and {@code dimension}. A provider ignores settings it
 * does not know.
 */
public final class EmbedderOptions {
  private static final EmbedderOptions DEFAULTS = builder().build();

  private final Map<String, String> settings;

  private EmbedderOptions(Builder b) {
    this.settings = Collections.unmodifiableMap(new TreeMap<>(b.settings));
  }

  /**
   * No settings.
   *
   * @return the default options
   */
  public static EmbedderOptions defaults() {
    return DEFAULTS;
  }

  /**
   * A builder without settings.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * One setting.
   *
   * @param name the setting's name, e.g. {@code "model"}
   * @return its value, empty when it was not given
   * @throws NullPointerException if {@code name} is null
   */
  public Optional<String> setting(String name) {
    return Optional.ofNullable(settings.get(Objects.requireNonNull(name, "name")));
  }

  /**
   * Every setting, sorted by name.
   *
   * @return an unmodifiable view
   */
  public Map<String, String> settings() {
    return settings;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EmbedderOptions other && other.settings.equals(settings);
  }

  @Override
  public int hashCode() {
    return settings.hashCode();
  }

  /** Names the settings given; never their values, which may hold an API key. */
  @Override
  public String toString() {
    return "EmbedderOptions" + settings.keySet();
  }

  /** Builds {@link EmbedderOptions}; not thread-safe. */
  public static final class Builder {
    private final Map<String, String> settings = new TreeMap<>();

    private Builder() {}

    /**
     * Sets one setting; a null value leaves it unset (so an optional property can be passed as it is).
     *
     * @param name the setting's name, e.g. {@code "base-url"}
     * @param value its value, or null
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     * @throws InvalidInputException if {@code name} is blank
     */
    public Builder setting(String name, @org.jspecify.annotations.Nullable String value) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new InvalidInputException("name", "must not be blank");
      }
      if (value == null) {
        settings.remove(name);
      } else {
        settings.put(name, value);
      }
      return this;
    }

    /**
     * The options.
     *
     * @return the options built
     */
    public EmbedderOptions build() {
      return new EmbedderOptions(this);
    }
  }
}

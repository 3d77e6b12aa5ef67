/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which embedder to use, by name: one an {@link EmbedderProvider} on the class path answers to
 * ({@code e5}, {@code minilm}, {@code openai}), {@code none} (full-text search only), or {@code auto} (the
 * one whose vectors the store already holds, see {@link #resolve}). The Spring Boot starter's
 * {@code engram.embedder}, the command line's and the MCP server's {@code --embedder} are all read by
 * {@link #parse(String, String)}.
 *
 * @param name the canonical name: a provider's {@link EmbedderProvider#name()}, {@code none} or {@code auto}
 */
public record EmbedderSpec(String name) {
  private static final Logger LOG = LoggerFactory.getLogger(EmbedderSpec.class);
  private static final String SETTING = "embedder";
  /** The modules of the embedders Engram ships, for the hint when one is missing. */
  private static final Map<String, String> MODULES = Map.of(
      "e5", "dev.engram:memory-embeddings-e5",
      "minilm", "dev.engram:memory-embeddings-minilm",
      "openai", "dev.engram:memory-embeddings-http",
      "http", "dev.engram:memory-embeddings-http");

  /** No embedder: search runs on full text only. */
  public static final EmbedderSpec NONE = new EmbedderSpec("none");

  /** The embedder whose vectors the store already holds ({@link #resolve}). */
  public static final EmbedderSpec AUTO = new EmbedderSpec("auto");

  /**
   * Checks the name.
   *
   * @param name the canonical name: a provider's {@link EmbedderProvider#name()}, {@code none} or {@code auto}
   * @throws NullPointerException if {@code name} is null
   * @throws InvalidInputException if {@code name} is blank or not lower case
   */
  public EmbedderSpec {
    Objects.requireNonNull(name, "name");
    if (name.isBlank() || !name.equals(name.strip().toLowerCase(Locale.ROOT))) {
      throw new InvalidInputException("name", "must be a lower-case embedder name such as e5");
    }
  }

  /**
   * Reads a name, naming the setting {@code embedder} in its messages.
   *
   * @param text e.g. {@code e5}
   * @return the spec
   * @throws NullPointerException if {@code text} is null
   * @throws InvalidInputException if the text names no embedder on the class path
   */
  public static EmbedderSpec parse(String text) {
    return parse(SETTING, text);
  }

  /**
   * Reads a name given to {@code setting} (e.g. {@code --embedder} or {@code engram.embedder}), which every
   * message names. Case and surrounding whitespace are ignored. A name no provider on the class path answers
   * to is refused with the names that are there, and the module to add when it is one of Engram's.
   *
   * @param setting the name of the setting, for messages
   * @param text {@code none}, {@code auto} or a provider's name
   * @return the spec
   * @throws NullPointerException if an argument is null
   * @throws InvalidInputException naming {@code setting} if the text names no embedder on the class path
   */
  public static EmbedderSpec parse(String setting, String text) {
    Objects.requireNonNull(setting, "setting");
    Objects.requireNonNull(text, "text");
    String name = text.strip().toLowerCase(Locale.ROOT);
    if (name.equals(NONE.name)) {
      return NONE;
    }
    if (name.equals(AUTO.name)) {
      return AUTO;
    }
    List<EmbedderProvider> providers = providers();
    Optional<EmbedderProvider> found = find(providers, name);
    if (found.isPresent()) {
      return new EmbedderSpec(found.get().name());
    }
    String shown = name.isEmpty() ? "is empty" : "names no embedder on the class path ('" + clip(name) + "')";
    String module = MODULES.get(name);
    throw new InvalidInputException(setting, shown + (module == null ? "" : ": add " + module)
        + "; use " + names(providers));
  }

  /**
   * Whether this is {@link #NONE}.
   *
   * @return true for no embedder
   */
  public boolean isNone() {
    return equals(NONE);
  }

  /**
   * Whether this is {@link #AUTO}.
   *
   * @return true when the store decides
   */
  public boolean isAuto() {
    return equals(AUTO);
  }

  /**
   * The provider this spec names; empty for {@link #NONE}.
   *
   * @return the provider, if any
   * @throws IllegalStateException for {@link #AUTO}, which only {@link #resolve} can answer
   * @throws InvalidInputException if no provider on the class path answers to the name
   */
  public Optional<EmbedderProvider> provider() {
    if (isNone()) {
      return Optional.empty();
    }
    if (isAuto()) {
      throw new IllegalStateException("auto names the embedder of a store's vectors: resolve it against the store");
    }
    List<EmbedderProvider> providers = providers();
    return Optional.of(find(providers, name).orElseThrow(
        () -> new InvalidInputException(SETTING, "names no embedder on the class path ('" + name + "'); use "
            + names(providers))));
  }

  /**
   * The provider to use with {@code store}: for a named spec, the one it names (empty for {@link #NONE});
   * for {@link #AUTO}, the embedder whose vectors the store already holds, so that what is written next
   * gets vectors of the same model and a search is embedded the way the stored versions were.
   *
   * <p>{@code AUTO} takes the providers on the class path whose fixed {@link EmbedderProvider#profile()} is
   * among the store's {@link MemoryStore#vectorProfiles()}. With one, it is the answer; with several, the
   * one that leaves the fewest active versions of {@code scopes} without vectors (ties and an empty
   * {@code scopes}: {@code fallback} first, then by name). With none, {@code fallback} is used; when the
   * store holds vectors only of profiles no provider here makes (an HTTP model, say), that is logged at
   * WARN, since what is written next will lack the store's vectors until a reindex.
   *
   * @param store the store the embedder will write to and search
   * @param scopes the scopes the caller works in, to weigh several candidates; may be empty
   * @param fallback what to use when the store holds no vectors a provider here makes; not {@code AUTO}
   * @return the provider, or empty for no embedder
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code fallback} is {@code AUTO}
   * @throws InvalidInputException if a named spec names no provider on the class path
   * @throws dev.engram.StoreException if the store cannot be read
   */
  public Optional<EmbedderProvider> resolve(MemoryStore store, Collection<String> scopes, EmbedderSpec fallback) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(scopes, "scopes");
    Objects.requireNonNull(fallback, "fallback");
    if (fallback.isAuto()) {
      throw new IllegalArgumentException("the fallback of auto must name an embedder or none");
    }
    if (!isAuto()) {
      return provider();
    }
    Set<String> stored = new TreeSet<>(store.vectorProfiles());
    List<EmbedderProvider> candidates = new ArrayList<>();
    for (EmbedderProvider p : providers()) {
      if (p.profile().map(profile -> stored.contains(profile.id())).orElse(false)) {
        candidates.add(p);
      }
    }
    if (candidates.isEmpty()) {
      if (!stored.isEmpty()) {
        LOG.warn("The store holds vectors of {} only, which no embedder on the class path makes; using {}: "
            + "versions written now lack those vectors until a reindex with the store's embedder", stored, fallback.name);
      }
      return fallback.provider();
    }
    Comparator<EmbedderProvider> preference = Comparator
        .comparing((EmbedderProvider p) -> !p.name().equals(fallback.name))
        .thenComparing(EmbedderProvider::name);
    if (!scopes.isEmpty() && candidates.size() > 1) {
      Map<EmbedderProvider, Long> missing = new LinkedHashMap<>();
      for (EmbedderProvider p : candidates) {
        String id = p.profile().orElseThrow().id();
        long gaps = 0;
        for (String scope : scopes) {
          gaps += store.countActiveWithoutVectors(scope, id);
        }
        missing.put(p, gaps);
      }
      preference = Comparator.comparing((EmbedderProvider p) -> missing.get(p)).thenComparing(preference);
    }
    candidates.sort(preference);
    EmbedderProvider chosen = candidates.get(0);
    LOG.debug("Embedder {}: the store holds its vectors ({} of {})", chosen.name(), candidates.size(), stored);
    return Optional.of(chosen);
  }

  /**
   * The embedder providers on the class path (the thread's context class loader, else this class's), one
   * per name, sorted by name. A provider that cannot be loaded is skipped and logged at WARN.
   *
   * @return the providers
   */
  public static List<EmbedderProvider> providers() {
    Map<String, EmbedderProvider> byName = new LinkedHashMap<>();
    for (EmbedderProvider p : StoreSpec.load(EmbedderProvider.class)) {
      byName.putIfAbsent(p.name(), p);
    }
    List<EmbedderProvider> out = new ArrayList<>(byName.values());
    out.sort(Comparator.comparing(EmbedderProvider::name));
    return List.copyOf(out);
  }

  private static Optional<EmbedderProvider> find(List<EmbedderProvider> providers, String name) {
    for (EmbedderProvider p : providers) {
      if (p.name().equals(name) || p.aliases().contains(name)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private static String names(List<EmbedderProvider> providers) {
    List<String> names = new ArrayList<>();
    names.add(AUTO.name);
    providers.forEach(p -> names.add(p.name()));
    names.add(NONE.name);
    return names.stream().collect(Collectors.joining(", "));
  }

  private static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where memory lives, written as one string the way a JDBC URL names a database: {@code memory} (an empty
 * in-memory store), {@code sqlite:FILE}, {@code postgres:URL} (a {@code jdbc:postgresql://…} or
 * {@code postgresql://…} URL). The part before the first colon is the scheme; the {@link StoreProvider} of
 * that scheme, found on the class path, checks the rest and opens the store. The Spring Boot starter's
 * {@code engram.store}, the command line's and the MCP server's {@code --store} are all read by
 * {@link #parse(String, String)}, so they accept the same spellings and fail with the same messages.
 *
 * <pre>{@code
 * MemoryStore store = StoreSpec.parse("sqlite:memory.db").open();
 * }</pre>
 *
 * <p>{@link #toString()} shows the spec without credentials ({@link #describe()}).
 *
 * @param scheme the scheme, lower case, e.g. {@code "sqlite"}
 * @param location what follows {@code scheme:} in its normal form, empty for {@code memory}
 */
public record StoreSpec(String scheme, String location) {
  private static final Logger LOG = LoggerFactory.getLogger(StoreSpec.class);
  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]{0,31}");
  /** The setting {@link #parse(String)} names in its messages. */
  private static final String SETTING = "store";
  /** The modules of the stores Engram ships, for the hint when one is missing. */
  private static final Map<String, String> MODULES = Map.of(
      "memory", "dev.engram:memory-store-inmemory",
      "sqlite", "dev.engram:memory-store-sqlite",
      "postgres", "dev.engram:memory-store-postgres",
      "postgresql", "dev.engram:memory-store-postgres");

  /**
   * Checks the components.
   *
   * @param scheme the scheme, lower case, e.g. {@code "sqlite"}
   * @param location what follows {@code scheme:}, empty for {@code memory}; not checked here (the
   *     provider's {@link StoreProvider#normalize} checks it when the spec is parsed or opened)
   * @throws NullPointerException if a component is null
   * @throws InvalidInputException if {@code scheme} is not a lower-case scheme name
   */
  public StoreSpec {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(location, "location");
    if (!SCHEME.matcher(scheme).matches()) {
      throw new InvalidInputException("scheme", "must be a lower-case scheme name such as sqlite");
    }
  }

  /**
   * Reads a spec, naming the setting {@code store} in its messages.
   *
   * @param text e.g. {@code sqlite:memory.db}
   * @return the spec, its location in normal form
   * @throws NullPointerException if {@code text} is null
   * @throws InvalidInputException if the text is empty, names a scheme no store on the class path takes,
   *     or a location that store refuses
   */
  public static StoreSpec parse(String text) {
    return parse(SETTING, text);
  }

  /**
   * Reads a spec given to {@code setting} (e.g. {@code --store} or {@code engram.store}), which every
   * message names. Surrounding whitespace is ignored and the scheme is case-insensitive. A scheme that no
   * store on the class path takes is refused with the schemes that are there, and the module to add when
   * it is one of Engram's. Messages never repeat more of the text than its scheme, so a password in a URL
   * stays out of them.
   *
   * @param setting the name of the setting, for messages
   * @param text e.g. {@code postgres:jdbc:postgresql://localhost/app?user=app}
   * @return the spec, its location in normal form
   * @throws NullPointerException if an argument is null
   * @throws InvalidInputException naming {@code setting} if the text is empty, names a scheme no store on
   *     the class path takes, or a location that store refuses
   */
  public static StoreSpec parse(String setting, String text) {
    Objects.requireNonNull(setting, "setting");
    Objects.requireNonNull(text, "text");
    String spec = text.strip();
    List<StoreProvider> providers = providers();
    if (spec.isEmpty()) {
      throw new InvalidInputException(setting, "is empty; " + usages(providers));
    }
    int colon = spec.indexOf(':');
    String scheme = (colon < 0 ? spec : spec.substring(0, colon)).toLowerCase(Locale.ROOT);
    String location = colon < 0 ? "" : spec.substring(colon + 1);
    if (!SCHEME.matcher(scheme).matches()) {
      throw new InvalidInputException(setting, "names no store: write SCHEME:LOCATION; " + usages(providers));
    }
    StoreProvider provider = find(providers, scheme).orElseThrow(() -> unknown(setting, scheme, providers));
    return new StoreSpec(provider.scheme(), provider.normalize(setting, location));
  }

  /**
   * Opens the store, creating it when it does not exist yet. The caller owns it and closes it.
   *
   * @return the open store
   * @throws InvalidInputException if no store on the class path takes this scheme, or the location is
   *     malformed
   * @throws dev.engram.StoreException if the store cannot be opened
   */
  public MemoryStore open() {
    return open(StoreOpenOptions.defaults());
  }

  /**
   * Opens the store as {@code options} say. The caller owns it and closes it.
   *
   * @param options how to open it
   * @return the open store
   * @throws NullPointerException if {@code options} is null
   * @throws InvalidInputException if no store on the class path takes this scheme, or the location is
   *     malformed
   * @throws dev.engram.StoreException if the store cannot be opened, or {@code options.mustExist()} and
   *     it does not exist
   */
  public MemoryStore open(StoreOpenOptions options) {
    Objects.requireNonNull(options, "options");
    StoreProvider provider = provider();
    return provider.open(provider.normalize(SETTING, location), options);
  }

  /**
   * The provider of this spec's scheme.
   *
   * @return the provider
   * @throws InvalidInputException if no store on the class path takes this scheme
   */
  public StoreProvider provider() {
    List<StoreProvider> providers = providers();
    return find(providers, scheme).orElseThrow(() -> unknown(SETTING, scheme, providers));
  }

  /**
   * The spec as it may be shown in logs and messages: the scheme and the location without credentials
   * (for PostgreSQL, the URL without its query parameters and user information).
   *
   * @return what may be shown
   */
  public String describe() {
    String shown;
    try {
      shown = location.isEmpty() ? "" : provider().describe(location);
    } catch (InvalidInputException e) {
      shown = location.isEmpty() ? "" : "…";
    }
    return shown.isEmpty() ? scheme : scheme + ":" + shown;
  }

  /** Same as {@link #describe()}: never shows credentials. */
  @Override
  public String toString() {
    return describe();
  }

  /**
   * The store providers on the class path (the thread's context class loader, else this class's), one per
   * scheme, sorted by scheme. A provider that cannot be loaded is skipped and logged at WARN.
   *
   * @return the providers
   */
  public static List<StoreProvider> providers() {
    Map<String, StoreProvider> byScheme = new LinkedHashMap<>();
    for (StoreProvider p : load(StoreProvider.class)) {
      byScheme.putIfAbsent(p.scheme(), p);
    }
    List<StoreProvider> out = new ArrayList<>(byScheme.values());
    out.sort(Comparator.comparing(StoreProvider::scheme));
    return List.copyOf(out);
  }

  /** The providers of {@code service} the context class loader (or Engram's) finds, in their order. */
  static <S> List<S> load(Class<S> service) {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    ServiceLoader<S> loader = ServiceLoader.load(service, context != null ? context : service.getClassLoader());
    List<S> out = new ArrayList<>();
    Iterator<S> it = loader.iterator();
    while (true) {
      try {
        if (!it.hasNext()) {
          return out;
        }
        out.add(it.next());
      } catch (ServiceConfigurationError e) {
        LOG.warn("Skipped a {} that cannot be loaded: {}", service.getSimpleName(), e.getMessage());
      }
    }
  }

  private static Optional<StoreProvider> find(List<StoreProvider> providers, String scheme) {
    for (StoreProvider p : providers) {
      if (p.scheme().equals(scheme) || p.aliases().contains(scheme)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private static String usages(List<StoreProvider> providers) {
    return providers.isEmpty()
        ? "no store module is on the class path (add dev.engram:memory-store-sqlite, for one)"
        : "the stores here take " + providers.stream().map(StoreProvider::usage).collect(Collectors.joining(", "));
  }

  private static InvalidInputException unknown(String setting, String scheme, List<StoreProvider> providers) {
    StringBuilder m = new StringBuilder("no store on the class path takes '").append(scheme).append(":'");
    String module = MODULES.get(scheme);
    if (module != null) {
      m.append(": add ").append(module).append(" (").append(usages(providers)).append(')');
    } else {
      m.append("; ").append(usages(providers));
      if (scheme.equals("jdbc")) {
        m.append(" (a JDBC URL goes after postgres:, e.g. postgres:jdbc:postgresql://localhost/app)");
      }
    }
    return new InvalidInputException(setting, m.toString());
  }
}

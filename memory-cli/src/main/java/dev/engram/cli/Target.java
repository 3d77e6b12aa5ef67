/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The options every command shares: which store, which grants, which embedder, which output.
 * They are inherited by every subcommand, so they may stand before or after its name
 * ({@code engram --store sqlite:m.db ls} and {@code engram ls --store sqlite:m.db} are the same); the
 * values are held here, on the top-level command. What is not given falls back to the environment.
 */
final class Target {
  static final String STORE_ENV = "ENGRAM_STORE";
  static final String GRANTS_ENV = "ENGRAM_GRANTS";
  static final String EMBEDDER_ENV = "ENGRAM_EMBEDDER";

  @Option(names = "--store", paramLabel = "STORE", scope = ScopeType.INHERIT,
      description = "sqlite:FILE, postgres:URL or memory (default: $" + STORE_ENV + ")")
  @Nullable String store;

  private final Set<String> grants = new LinkedHashSet<>();

  @Option(names = {"-g", "--grant"}, paramLabel = "NS", split = ",", scope = ScopeType.INHERIT,
      description = "namespace(s) this call may see and change, e.g. app/user/u_123"
          + " (repeat or separate with commas; default: $" + GRANTS_ENV + ")")
  void grants(List<String> values) {
    // picocli hands over every value given so far, before and after the subcommand's name
    grants.addAll(values);
  }

  @Option(names = "--embedder", paramLabel = "NAME", scope = ScopeType.INHERIT,
      description = "auto, e5, minilm or none: the model that embeds what is written and searched; auto (the default,"
          + " or $" + EMBEDDER_ENV + ") takes the one whose vectors the store holds, e5 for a store without vectors")
  @Nullable String embedder;

  @Option(names = "--json", scope = ScopeType.INHERIT, description = "print JSON for scripts instead of tables")
  boolean json;

  /** {@code -h} / {@code --help}, which every command has (not inherited: the {@code help} command has its own). */
  static final class Help {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;
  }

  /** The {@code --store} given, else {@code $ENGRAM_STORE}. */
  @Nullable String store(Map<String, String> env) {
    return store != null ? store : env.get(STORE_ENV);
  }

  /** The {@code --grant} values given, else those of {@code $ENGRAM_GRANTS}; blank ones dropped. */
  List<String> grants(Map<String, String> env) {
    List<String> out = new ArrayList<>();
    if (!grants.isEmpty()) {
      out.addAll(grants);
    } else if (env.get(GRANTS_ENV) != null) {
      out.addAll(List.of(env.get(GRANTS_ENV).split(",")));
    }
    return out.stream().map(String::strip).filter(s -> !s.isEmpty()).distinct().toList();
  }

  /** The {@code --embedder} given, else {@code $ENGRAM_EMBEDDER}, else {@code auto}. */
  String embedder(Map<String, String> env) {
    if (embedder != null) {
      return embedder;
    }
    String fromEnv = env.get(EMBEDDER_ENV);
    return fromEnv == null || fromEnv.isBlank() ? "auto" : fromEnv;
  }
}

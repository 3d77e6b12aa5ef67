/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The options every command shares: which store, which grants, which embedder, which output. */
final class Target {
  @Option(names = "--store", paramLabel = "STORE", defaultValue = "${env:ENGRAM_STORE}",
      description = "sqlite:FILE, postgres:URL or memory (default: $ENGRAM_STORE)")
  @Nullable String store;

  @Option(names = {"-g", "--grant"}, paramLabel = "NS", split = ",", defaultValue = "${env:ENGRAM_GRANTS}",
      description = "namespace(s) this call may see and change, e.g. app/user/u_123"
          + " (repeat or separate with commas; default: $ENGRAM_GRANTS)")
  List<String> grants = new ArrayList<>();

  @Option(names = "--embedder", paramLabel = "NAME", defaultValue = "${env:ENGRAM_EMBEDDER:-e5}",
      description = "e5, minilm or none: the offline model that embeds what is written and searched; use the one"
          + " the application uses (default: $ENGRAM_EMBEDDER, else e5)")
  String embedder = "e5";

  @Option(names = "--json", description = "print JSON for scripts instead of tables")
  boolean json;
}

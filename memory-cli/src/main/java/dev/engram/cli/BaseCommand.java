/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import dev.engram.spi.StoreSpec;
import picocli.CommandLine.Mixin;

/** A subcommand over one opened {@link Session}. */
abstract class BaseCommand implements Callable<Integer> {

  @Mixin
  Target.Help help;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Whether the command works under grants (most do; stats and doctor can run store-wide). */
  boolean needsGrants() {
    return true;
  }

  /** Whether a missing SQLite file may be created (only commands that add memory). */
  boolean creates() {
    return false;
  }

  /** The store to open instead of the one {@code --store} names (only a dry run into a new file differs). */
  StoreSpec adjust(StoreSpec spec) {
    return spec;
  }

  abstract int run(Session session) throws Exception;

  /**
   * The top-level command, which holds the shared options ({@link Target}) wherever they were given; a
   * subcommand of a group ({@code engram review list}) reaches it through the group.
   */
  EngramCli root() {
    return (EngramCli) spec.root().userObject();
  }

  @Override
  public final Integer call() throws Exception {
    before();
    try (Session session = Session.open(root().target, root().environment(), needsGrants(), creates(), this::adjust)) {
      return run(session);
    }
  }

  /** Checks that need no store (confirmation flags); runs before the store is opened. */
  void before() {}

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  boolean json() {
    return root().target.json;
  }

  void printJson(JsonNode node) {
    try {
      out().println(Json.MAPPER.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render JSON", e);
    }
    out().flush();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import dev.engram.benchmarks.retrieval.RetrievalCommand;
import dev.engram.benchmarks.search.SearchCommand;
import dev.engram.benchmarks.search.VectorCommand;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one entry point of {@code memory-benchmarks.jar}: {@code java -jar memory-benchmarks.jar <command>
 * [options]}. A command is either one of the registered subcommands below, or the simple name of a class
 * in {@code dev.engram.benchmarks} that has a {@code public static void main(String[])}, which receives
 * the remaining arguments.
 */
public final class Main {

  /** A subcommand: runs with the arguments after its name and returns the process exit code. */
  @FunctionalInterface
  public interface Command {
    int run(String[] args, PrintStream out, PrintStream err) throws Exception;
  }

  private static final Map<String, Command> COMMANDS = new LinkedHashMap<>();
  private static final Map<String, String> SUMMARIES = new LinkedHashMap<>();

  static {
    register("retrieval", RetrievalCommand.SUMMARY, RetrievalCommand::run);
    register("search", SearchCommand.SUMMARY, SearchCommand::run);
    register("fulltext", FullTextCommand.SUMMARY, FullTextCommand::run);
    register("vectors", VectorCommand.SUMMARY, VectorCommand::run);
    register("chain", ChainCommand.SUMMARY, ChainCommand::run);
    register("context", ContextCommand.SUMMARY, ContextCommand::run);
    register("server", ServerCommand.SUMMARY, ServerCommand::run);
    register("inmemory-writes", InMemoryWritesCommand.SUMMARY, InMemoryWritesCommand::run);
  }

  private Main() {}

  private static void register(String name, String summary, Command command) {
    COMMANDS.put(name, command);
    SUMMARIES.put(name, summary);
  }

  public static void main(String[] args) throws Exception {
    int code = run(args, System.out, System.err);
    System.out.flush();
    System.err.flush();
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Runs a command and returns its exit code (0 ok, 1 failure, 2 usage error). */
  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
      usage(args.length == 0 ? err : out);
      return args.length == 0 ? 2 : 0;
    }
    String name = args[0];
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    Command command = COMMANDS.get(name);
    if (command != null) {
      return command.run(rest, out, err);
    }
    Method main = mainOf(name);
    if (main != null) {
      try {
        main.invoke(null, (Object) rest);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Exception ex) {
          throw ex;
        }
        throw (Error) cause;
      }
      return 0;
    }
    err.println("unknown command '" + name + "'");
    usage(err);
    return 2;
  }

  private static Method mainOf(String simpleName) {
    if (!simpleName.matches("[A-Za-z_][A-Za-z0-9_]*") || simpleName.equals("Main")) {
      return null;
    }
    try {
      Class<?> type = Class.forName(Main.class.getPackageName() + "." + simpleName);
      Method main = type.getMethod("main", String[].class);
      return Modifier.isStatic(main.getModifiers()) ? main : null;
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      return null;
    }
  }

  private static void usage(PrintStream to) {
    to.println("usage: java -jar memory-benchmarks.jar <command> [options]");
    to.println();
    to.println("commands:");
    for (Map.Entry<String, String> c : SUMMARIES.entrySet()) {
      to.printf("  %-16s %s%n", c.getKey(), c.getValue());
    }
    to.println("  <Class>          runs dev.engram.benchmarks.<Class>.main with the remaining arguments");
    to.println();
    to.println("Run a command with --help for its options.");
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.ErrorCode;
import dev.engram.MemoryException;
import dev.engram.StoreException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code engram}: see and fix the memory an Engram-backed application keeps. Each subcommand opens
 * the store, does one thing under the given grants and exits with a documented code (see the package
 * documentation); failures a user can fix are one line on stderr, never a stack trace.
 */
@Command(
    name = "engram",
    versionProvider = EngramCli.Version.class,
    description = "See and fix the memory an Engram-backed application keeps.",
    subcommands = {
        ReadCommands.Scopes.class,
        ReadCommands.Ls.class,
        ReadCommands.Show.class,
        ReadCommands.History.class,
        ReadCommands.Search.class,
        ReadCommands.Context.class,
        ChangeCommands.Write.class,
        ChangeCommands.Correct.class,
        ChangeCommands.Retire.class,
        ChangeCommands.Reactivate.class,
        ChangeCommands.Rollback.class,
        ChangeCommands.Reindex.class,
        MaintenanceCommands.Curate.class,
        MaintenanceCommands.Flush.class,
        ChangeCommands.Erase.class,
        TransferCommands.Export.class,
        TransferCommands.Import.class,
        ReportCommands.StatsCommand.class,
        ReportCommands.UsageCommand.class,
        ReportCommands.DoctorCommand.class,
        ConsoleCommand.class,
        ReviewCommands.Review.class,
        CommandLine.HelpCommand.class},
    footerHeading = "%nExit codes:%n",
    footer = {
        "  0  success",
        "  1  not found, conflict, refused change, or doctor found a problem",
        "  2  usage: bad option, malformed grant or input, missing --yes",
        "  3  the store or a file could not be opened, read or written"})
public final class EngramCli implements Runnable {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int STORE = 3;

  private static final Logger LOG = LoggerFactory.getLogger(EngramCli.class);

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** The options every subcommand shares, given before or after its name. */
  @CommandLine.Mixin
  Target target;

  @CommandLine.Mixin
  Target.Help help;

  @CommandLine.Option(names = {"-V", "--version"}, versionHelp = true, description = "print the version and exit")
  boolean version;

  private final Map<String, String> environment;

  private EngramCli(Map<String, String> environment) {
    this.environment = environment;
  }

  /** The environment the shared options fall back to. */
  Map<String, String> environment() {
    return environment;
  }

  /**
   * Runs the command line and exits with its code.
   *
   * @param args the arguments
   */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs one command line; the code it would exit with. */
  static int run(String... args) {
    return run(System.getenv(), args);
  }

  /** Runs one command line with {@code environment} for the options' fallbacks; the code it would exit with. */
  static int run(Map<String, String> environment, String... args) {
    CommandLine cli = new CommandLine(new EngramCli(environment));
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setExecutionExceptionHandler(EngramCli::failure);
    cli.setParameterExceptionHandler((ex, a) -> {
      PrintWriter err = ex.getCommandLine().getErr();
      err.println("engram: " + ex.getMessage());
      err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more.");
      err.flush();
      return USAGE;
    });
    return cli.execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  private static int failure(Exception ex, CommandLine cli, CommandLine.ParseResult parsed) {
    PrintWriter err = cli.getErr();
    int code = exitCode(ex);
    if (code == FAILED && !(ex instanceof MemoryException)) {
      LOG.error("unexpected failure", ex);
      err.println("engram: unexpected " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
    } else {
      err.println("engram: " + ex.getMessage());
    }
    err.flush();
    return code;
  }

  static int exitCode(Throwable ex) {
    if (ex instanceof UsageException || ex instanceof IllegalArgumentException) {
      return USAGE;
    }
    if (ex instanceof MemoryException m) {
      if (m.code() == ErrorCode.INVALID_INPUT || m.code() == ErrorCode.INVALID_GRANT) {
        return USAGE;
      }
      return m instanceof StoreException ? STORE : FAILED;
    }
    if (ex instanceof IOException || ex instanceof UncheckedIOException) {
      return STORE;
    }
    return FAILED;
  }

  /** The version of this build, from the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = EngramCli.class.getPackage().getImplementationVersion();
      return new String[] {"engram " + (v == null ? "(development build)" : v)};
    }
  }
}

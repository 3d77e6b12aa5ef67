/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code engram console}: serves the local web console until interrupted. */
@Command(name = "console", description = "Start the local web console on 127.0.0.1 and print its address"
    + " with a fresh access token. Runs until interrupted (Ctrl-C).")
final class ConsoleCommand extends BaseCommand {
  @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
      description = "port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--request-timeout", paramLabel = "SECONDS", defaultValue = "10",
      description = "seconds a connection may take to send its whole request, and again to take its response,"
          + " before the console closes it (default: ${DEFAULT-VALUE})")
  int requestTimeout;

  @Override
  int run(Session s) throws Exception {
    if (port < 0 || port > 65_535) {
      throw new UsageException("--port must be between 0 and 65535, was " + port);
    }
    if (requestTimeout < 1 || requestTimeout > 3_600) {
      throw new UsageException("--request-timeout must be between 1 and 3600 seconds, was " + requestTimeout);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Console console = Console.start(s, port, Duration.ofSeconds(requestTimeout));
    Thread hook = new Thread(() -> {
      console.close();
      stopped.countDown();
    }, "engram-console-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    out().println("Engram console for " + s.describe() + " as " + String.join(", ", s.grants().namespaces()));
    out().println("Open " + console.url());
    out().println("(the address carries this run's access token; Ctrl-C stops the console)");
    out().flush();
    stopped.await();
    return EngramCli.OK;
  }
}

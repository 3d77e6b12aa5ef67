/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A child JVM running a main class of these test sources on the test class path. Its stdout is read
 * line by line on a background thread; only lines ended by a newline count, so a line cut short by a
 * kill is never taken as said. Stderr goes to a file.
 */
final class ChildJvm implements AutoCloseable {
  private static final String EOF = "\u0000eof";

  private final Process process;
  private final Path stderr;
  private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final OutputStream stdin;

  private ChildJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.stdin = process.getOutputStream();
    Thread reader = new Thread(this::pump, "child-stdout-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  static ChildJvm start(Class<?> main, Path workDir, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    Path stderr = Files.createTempFile(workDir, main.getSimpleName(), ".err");
    Process p = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    return new ChildJvm(p, stderr);
  }

  private void pump() {
    try (InputStream in = process.getInputStream()) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int b;
      while ((b = in.read()) >= 0) {
        if (b == '\n') {
          lines.add(line.toString(StandardCharsets.UTF_8));
          line.reset();
        } else {
          line.write(b);
        }
      }
    } catch (IOException e) {
      // the stream closes when the child dies
    } finally {
      lines.add(EOF);
    }
  }

  /** The next complete line, or null at the end of the stream. */
  String nextLine(Duration timeout) throws InterruptedException, TimeoutException {
    String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (line == null) {
      throw new TimeoutException("no line from child " + process.pid() + " within " + timeout + "; stderr: " + stderr());
    }
    if (line.equals(EOF)) {
      lines.add(EOF);
      return null;
    }
    return line;
  }

  void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  /** Kills the child with SIGKILL and waits for it to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("child " + process.pid() + " survived SIGKILL");
    }
  }

  int waitFor(Duration timeout) throws InterruptedException, TimeoutException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new TimeoutException("child " + process.pid() + " still running after " + timeout + "; stderr: " + stderr());
    }
    return process.exitValue();
  }

  String stderr() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** Kills the child if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

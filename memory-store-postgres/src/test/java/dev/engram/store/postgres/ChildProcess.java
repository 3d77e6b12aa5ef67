/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A {@link StoreWorker} in its own JVM, with its stdout collected line by line. Every wait is bounded. */
final class ChildProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final Thread reader;

  private ChildProcess(String name, Process process) {
    this.name = name;
    this.process = process;
    this.reader = new Thread(this::readOutput, "child-output-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code StoreWorker} with {@code args} on this JVM's java and class path. */
  static ChildProcess start(String name, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx128m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(StoreWorker.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    return new ChildProcess(name, pb.start());
  }

  private void readOutput() {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        lines.add(line);
      }
    } catch (IOException ignored) {
      // the process ended
    }
  }

  /** Waits until the child printed a line equal to or starting with {@code prefix}. */
  void awaitLine(String prefix, long timeoutMillis) throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (System.nanoTime() < deadline) {
      for (String line : lines) {
        if (line.startsWith(prefix)) {
          return;
        }
        if (line.startsWith("ERROR")) {
          throw new IllegalStateException(name + " failed: " + line);
        }
      }
      if (!process.isAlive() && !reader.isAlive()) {
        throw new IllegalStateException(name + " exited with " + process.exitValue() + " before printing " + prefix
            + "; output: " + lines);
      }
      Thread.sleep(20);
    }
    throw new TimeoutException(name + " did not print " + prefix + " within " + timeoutMillis + " ms; output: " + lines);
  }

  void send(String line) throws IOException {
    OutputStream out = process.getOutputStream();
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Waits for the child to exit and returns its status. */
  int awaitExit(long timeoutMillis) throws InterruptedException, TimeoutException {
    if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
      throw new TimeoutException(name + " did not exit within " + timeoutMillis + " ms; output: " + lines);
    }
    reader.join(timeoutMillis);
    return process.exitValue();
  }

  /** Kills the child the way a crash would (no shutdown hooks, no cleanup). */
  void kill(long timeoutMillis) throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  List<String> lines() {
    return List.copyOf(lines);
  }

  List<String> linesStartingWith(String prefix) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith(prefix)) {
        out.add(line);
      }
    }
    return out;
  }

  String name() {
    return name;
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }

  @Override
  public String toString() {
    return name + lines;
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The packaged {@code engram.jar}, run as a child process the way a user runs it. */
final class EngramJar {
  private EngramJar() {}

  /**
   * What one run printed and how it exited.
   *
   * @param exitCode the process exit code
   * @param out stdout
   * @param err stderr
   */
  record Result(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static Path jar() {
    String p = System.getProperty("engram.jar");
    assertThat(p).as("system property engram.jar (set by failsafe)").isNotNull();
    Path jar = Path.of(p);
    assertThat(jar).as("the packaged command line").isRegularFile();
    return jar;
  }

  static List<String> command(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-jar");
    cmd.add(jar().toString());
    Collections.addAll(cmd, args);
    return cmd;
  }

  /** Runs {@code engram args…} in {@code dir} without ENGRAM_* variables and waits for it. */
  static Result run(Path dir, String... args) {
    try {
      ProcessBuilder pb = new ProcessBuilder(command(args)).directory(dir.toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("ENGRAM_"));
      Process p = pb.start();
      p.getOutputStream().close();
      CompletableFuture<String> out = drain(p.getInputStream());
      CompletableFuture<String> err = drain(p.getErrorStream());
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("engram " + String.join(" ", args) + " did not finish in 90 s");
      }
      return new Result(p.exitValue(), out.join(), err.join());
    } catch (IOException e) {
      throw new AssertionError("cannot start the engram jar", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "<unreadable: " + e + ">";
      }
    });
  }

  /** A running {@code engram console}: the address it printed, stopped on close. */
  static final class RunningConsole implements AutoCloseable {
    final Process process;
    final String url;

    private RunningConsole(Process process, String url) {
      this.process = process;
      this.url = url;
    }

    String base() {
      return url.substring(0, url.indexOf("/?token="));
    }

    static RunningConsole start(Path dir, String... args) throws IOException {
      List<String> all = new ArrayList<>(List.of("console"));
      Collections.addAll(all, args);
      ProcessBuilder pb = new ProcessBuilder(command(all.toArray(String[]::new)))
          .directory(dir.toFile())
          .redirectError(dir.resolve("console.err").toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("ENGRAM_"));
      Process p = pb.start();
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture<String> address = CompletableFuture.supplyAsync(() -> {
        try {
          for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("Open http://")) {
              return line.substring("Open ".length()).strip();
            }
          }
          return null;
        } catch (IOException e) {
          return null;
        }
      });
      try {
        String url = address.get(60, TimeUnit.SECONDS);
        if (url == null) {
          throw new AssertionError("the console exited without printing its address: "
              + Files.readString(dir.resolve("console.err")));
        }
        return new RunningConsole(p, url);
      } catch (Exception e) {
        p.destroyForcibly();
        throw new AssertionError("the console did not print its address: " + e, e);
      }
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}

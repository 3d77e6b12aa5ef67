/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A project outside the reactor, as a newcomer makes it from the README: the "runnable app" section's
 * {@code pom.xml} and {@code Main.java} in an empty folder, built and run with {@code mvn -q compile exec:java}.
 * The Engram artifacts come from this build's own jars and POMs, laid out as the README's
 * {@code mvn install} in a clone lays them out, in a repository of the test's own; everything else comes from
 * the local Maven repository, read as a remote one, and from Maven Central for the few POMs it may lack
 * (versions the reactor's dependency management skips). The child build has a local repository of its own:
 * the shared one is never written to.
 */
class NewcomerProjectIT {
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  private static Path work;
  private static Path app;
  private static Path settings;

  @BeforeAll
  static void layOutTheProject() throws IOException {
    Path root = Readme.root();
    work = Path.of(property("engram.build.directory")).resolve("newcomer");
    Path clone = work.resolve("clone-repository");
    app = work.resolve("app");
    Path local = work.resolve("local-repository");
    deleteTree(clone);
    deleteTree(app);
    deleteTree(local.resolve("dev/engram"));

    String version = property("engram.version");
    install(clone, "engram-parent", version, root.resolve("pom.xml"), null);
    Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
    while (m.find()) {
      String module = m.group(1);
      Path jar = root.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
      install(clone, module, version, root.resolve(module).resolve("pom.xml"), Files.isRegularFile(jar) ? jar : null);
    }

    write(app.resolve("pom.xml"), Readme.newcomerFile("pom.xml").code());
    String main = "src/main/java/demo/Main.java";
    write(app.resolve(main), Readme.newcomerFile(main).code());

    settings = work.resolve("settings.xml");
    // the clone's artifacts, then what this machine already has; Maven Central only for what it lacks (all of it
    // lands in the test's own local repository)
    String machine = Path.of(property("engram.local.repository")).toUri().toString();
    write(settings, """
        <settings>
          <localRepository>%s</localRepository>
          <profiles>
            <profile>
              <id>newcomer</id>
              <repositories>
                <repository>
                  <id>engram-clone</id>
                  <url>%s</url>
                  <releases><enabled>false</enabled></releases>
                  <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>
                </repository>
                <repository>
                  <id>this-machine</id>
                  <url>%s</url>
                  <snapshots><enabled>false</enabled></snapshots>
                </repository>
              </repositories>
              <pluginRepositories>
                <pluginRepository>
                  <id>this-machine</id>
                  <url>%s</url>
                  <snapshots><enabled>false</enabled></snapshots>
                </pluginRepository>
              </pluginRepositories>
            </profile>
          </profiles>
          <activeProfiles><activeProfile>newcomer</activeProfile></activeProfiles>
        </settings>
        """.formatted(local, clone.toUri(), machine, machine));
  }

  @Test
  void theReadmeAppBuildsAndRunsAgainstTheInstalledArtifacts() throws Exception {
    Run first = mvn("compile", "exec:java");
    assertThat(first.exit).as(first.toString()).isZero();
    assertThat(first.out).as(first.toString())
        .contains("APPENDED Moved to Lisbon in May.\n", "APPENDED Allergic to peanuts.\n")
        .contains("HYBRID search, best hit: Moved to Lisbon in May.\n")
        .contains("context for the agent, 2 citations:\n")
        .contains("<<<BEGIN UNTRUSTED MEMORY>>>");
    assertThat(first.err).as("no warnings at the app's default logging").doesNotContain("WARN");
    assertThat(app.resolve("memory.db")).isRegularFile();

    Run second = mvn("-o", "compile", "exec:java");
    assertThat(second.exit).as(second.toString()).isZero();
    assertThat(second.out).as("the memory lasts: " + second)
        .contains("DEDUPED Moved to Lisbon in May.\n", "DEDUPED Allergic to peanuts.\n");
  }

  private record Run(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private static Run mvn(String... goals) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(property("maven.home"), "bin", "mvn").toString(),
        "-B", "-q", "-s", settings.toString()));
    cmd.addAll(List.of(goals));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(app.toFile());
    pb.environment().remove("MAVEN_OPTS");
    pb.environment().remove("MAVEN_ARGS");
    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<String> out = drain(p.getInputStream());
    CompletableFuture<String> err = drain(p.getErrorStream());
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("mvn " + String.join(" ", goals) + " did not finish in 5 minutes");
    }
    return new Run(p.exitValue(), out.join(), err.join());
  }

  private static CompletableFuture<String> drain(java.io.InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "<unreadable: " + e + ">";
      }
    });
  }

  /** Lays out one artifact as {@code mvn install} does in a local repository. */
  private static void install(Path repo, String artifactId, String version, Path pom, Path jar) throws IOException {
    Path dir = repo.resolve("dev/engram").resolve(artifactId).resolve(version);
    Files.createDirectories(dir);
    Files.copy(pom, dir.resolve(artifactId + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    if (jar != null) {
      Files.copy(jar, dir.resolve(artifactId + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new AssertionError("system property " + name + " is not set (the build sets it)");
    }
    return value;
  }
}

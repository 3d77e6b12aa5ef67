/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.adk.example;

import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.events.Event;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.LoadMemoryTool;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.adk.EngramMemoryService;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An ADK agent whose long-term memory is Engram, runnable offline: ADK's own {@link Runner},
 * {@link LlmAgent} and {@link LoadMemoryTool} with a scripted model. In a first session the user says
 * where they live; the session is added to memory (captured, then flushed into memories); in a second
 * session the agent's {@code loadMemory} call finds it. Then the user's memory is erased.
 *
 * <p>Run it with {@code mvn -B -pl memory-adk -am test -Dtest=AdkMemoryExampleTest} (it prints the
 * conversation), or call {@link #run} from your own code with a real model in place of the scripted one.
 */
public final class AdkMemoryExample {
  private AdkMemoryExample() {}

  public static void main(String[] args) throws Exception {
    Path file = Files.createTempFile("engram-adk", ".db");
    run(file, System.out);
  }

  /** Runs the two sessions and the erasure on a SQLite file, printing what happens. */
  public static void run(Path file, PrintStream out) {
    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(file)).reasoner(new DeterministicReasoner())
        .build()) {
      EngramMemoryService memory = EngramMemoryService.of(engram, Grants.template("adk/{id}"));
      InMemorySessionService sessions = new InMemorySessionService();
      LlmAgent agent = LlmAgent.builder().name("assistant").model(new ScriptedGemini())
          .instruction("Answer from memory when asked about the user.").tools(new LoadMemoryTool()).build();
      Runner runner = new Runner(agent, "weather", new InMemoryArtifactService(), sessions, memory);

      Session first = sessions.createSession("weather", "alice", null, null).blockingGet();
      say(runner, first, "I live in Grenoble and I prefer Celsius.", out);
      Session done = sessions.getSession("weather", "alice", first.id(), java.util.Optional.empty()).blockingGet();
      memory.addSessionToMemory(done).blockingAwait();
      out.println("memory: session " + short8(first.id()) + " added (" + done.events().size() + " events)");

      Session second = sessions.createSession("weather", "alice", null, null).blockingGet();
      say(runner, second, "Where do I live?", out);

      Session bobs = sessions.createSession("weather", "bob", null, null).blockingGet();
      say(runner, bobs, "Where do I live?", out);

      memory.deleteUserMemory("weather", "alice").blockingAwait();
      out.println("memory: alice erased; search finds "
          + memory.searchMemory("weather", "alice", "Grenoble").blockingGet().memories().size() + " memories");
    }
  }

  private static void say(Runner runner, Session session, String text, PrintStream out) {
    out.println(session.userId() + " > " + text);
    List<Event> events = runner.runAsync(session.userId(), session.id(),
        Content.builder().role("user").parts(List.of(Part.fromText(text))).build()).toList().blockingGet();
    for (Event e : events) {
      e.content().flatMap(c -> c.parts()).orElse(List.of()).forEach(p -> {
        p.text().ifPresent(t -> out.println(e.author() + " < " + t));
        p.functionCall().ifPresent(c -> out.println(e.author() + " calls " + c.name().orElse("?") + " "
            + c.args().orElse(java.util.Map.of())));
      });
    }
  }

  private static String short8(String id) {
    return id.length() > 8 ? id.substring(0, 8) : id;
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.beta.messages.BetaContentBlock;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818;
import com.anthropic.models.beta.messages.BetaMessage;
import com.anthropic.models.beta.messages.MessageCreateParams;
import com.anthropic.models.beta.messages.ToolRunnerCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.agent.MemoryFiles;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.ModelServer;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Claude's memory tool on Engram, runnable offline: the Anthropic SDK's own client and tool runner talk
 * to a loopback server that answers in the Messages API's format as a scripted Claude would (point the
 * client at the real API and the same code runs against Claude). Three conversations, each a fresh
 * runner: the user says where they live (Claude looks at {@code /memories} and writes a file), asks later
 * (Claude reads the file), then moves (Claude edits it). Every edit is an Engram version: the history of
 * the file is printed, and a rollback undoes the move.
 *
 * <p>Run it with {@code mvn -B -pl memory-anthropic -am test -Dtest=ClaudeMemoryExampleTest}.
 */
public final class ClaudeMemoryExample {
  private ClaudeMemoryExample() {}

  public static void main(String[] args) throws Exception {
    run(Files.createTempFile("engram-claude", ".db"), System.out);
  }

  /** Runs the three conversations on a SQLite file, printing what happens. */
  public static void run(Path file, PrintStream out) {
    Grants alice = Grants.template("app/user/{id}").grants("alice");   // trusted code, per request
    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(file)).reasoner(new DeterministicReasoner())
            .build();
        ModelServer claude = ModelServer.start()) {
      ScriptedClaude script = new ScriptedClaude();
      claude.otherwise(script::reply);
      AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(claude.anthropicBaseUrl()).apiKey("offline")
          .maxRetries(0).build();
      try {
        for (String said : List.of("I live in Grenoble and I prefer metric units.", "Which units do I prefer?",
            "I moved to Lyon.")) {
          out.println("user > " + said);
          script.start(said);
          var runner = client.beta().messages().toolRunner(ToolRunnerCreateParams.builder()
              .betaMemoryToolHandler(EngramMemoryToolHandler.of(engram, alice))
              .maxIterations(10)
              .initialMessageParams(MessageCreateParams.builder()
                  .model("claude-sonnet-4-5")
                  .maxTokens(1024)
                  .addTool(BetaMemoryTool20250818.builder().build())
                  .addUserMessage(said)
                  .build())
              .build());
          for (BetaMessage m : runner) {
            for (BetaContentBlock b : m.content()) {
              b.toolUse().ifPresent(t -> out.println("claude uses memory " + t._input().toString()));
              b.text().ifPresent(t -> out.println("claude < " + t.text()));
            }
          }
        }
      } finally {
        client.close();
      }
      MemoryFiles files = MemoryFiles.bind(engram, alice);
      MemoryEntry user = files.entry("/memories/user.md").orElseThrow();
      List<MemoryEvent> history = engram.history(alice, user.entryId());
      for (MemoryEvent e : history) {
        out.println("history: " + e.kind() + " by " + e.actor() + " -> "
            + (e.after() == null ? "" : e.after().content().replace("\n", " / ")));
      }
      engram.rollback(alice, history.get(0).eventId());
      out.println("after rollback: " + files.view("/memories/user.md").text().replace("\n", " / "));
    }
  }

  /**
   * The scripted Claude: within one conversation it answers turn by turn, deciding from what the user
   * said and what the memory tool returned, as the model would. The first turn of each conversation looks
   * at {@code /memories}.
   */
  static final class ScriptedClaude {
    private volatile String said = "";
    private final java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();

    void start(String userSaid) {
      this.said = userSaid;
      turn.set(0);
    }

    ModelServer.Reply reply(ModelServer.Recorded request) {
      int t = turn.getAndIncrement();
      List<JsonNode> results = ClaudeTurns.toolResults(request);
      String lastResult = results.isEmpty() ? "" : ClaudeTurns.text(results.get(0));
      if (t == 0) {
        return ClaudeTurns.memoryToolUse(t, "{\"command\":\"view\",\"path\":\"/memories\"}");
      }
      if (said.startsWith("I live in")) {
        return t == 1
            ? ClaudeTurns.memoryToolUse(t, "{\"command\":\"create\",\"path\":\"/memories/user.md\",\"file_text\":"
                + "\"Lives in Grenoble.\\nPrefers metric units.\"}")
            : ClaudeTurns.finalText(t, "Noted.");
      }
      if (said.startsWith("Which units")) {
        return t == 1
            ? ClaudeTurns.memoryToolUse(t, "{\"command\":\"view\",\"path\":\"/memories/user.md\"}")
            : ClaudeTurns.finalText(t, lastResult.contains("metric") ? "You prefer metric units." : "I don't know.");
      }
      return t == 1
          ? ClaudeTurns.memoryToolUse(t, "{\"command\":\"str_replace\",\"path\":\"/memories/user.md\",\"old_str\":"
              + "\"Grenoble\",\"new_str\":\"Lyon\"}")
          : ClaudeTurns.finalText(t, "Updated: you live in Lyon now.");
    }
  }
}

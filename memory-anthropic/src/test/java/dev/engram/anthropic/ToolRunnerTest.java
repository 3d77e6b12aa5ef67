/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.helpers.BetaToolRunner;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818;
import com.anthropic.models.beta.messages.BetaMessage;
import com.anthropic.models.beta.messages.MessageCreateParams;
import com.anthropic.models.beta.messages.ToolRunnerCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Engram;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.agent.MemoryFiles;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.ModelServer;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SDK's own tool runner, against a loopback server in Anthropic's wire format, runs Claude's memory tool on Engram. */
class ToolRunnerTest {
  private static final Grants ALICE = Grants.of("app/users/alice");

  @Test
  void theToolRunnerHandsEveryMemoryToolUseToEngramAndSendsBackTheProtocolText() {
    List<String> inputs = List.of(
        "{\"command\":\"view\",\"path\":\"/memories\"}",
        "{\"command\":\"create\",\"path\":\"/memories/user.md\",\"file_text\":\"Prefers metric units.\\nLives in Lyon.\"}",
        "{\"command\":\"str_replace\",\"path\":\"/memories/user.md\",\"old_str\":\"Lyon\",\"new_str\":\"Grenoble\"}",
        "{\"command\":\"str_replace\",\"path\":\"/memories/user.md\",\"old_str\":\"Paris\",\"new_str\":\"Nice\"}",
        "{\"command\":\"view\",\"path\":\"/memories/../../etc/passwd\"}",
        "{\"command\":\"view\",\"path\":\"/memories/user.md\"}");
    try (Engram engram = Engram.builder().store(new InMemoryMemoryStore()).reasoner(new DeterministicReasoner())
            .build();
        ModelServer claude = ModelServer.start()) {
      for (int i = 0; i < inputs.size(); i++) {
        claude.enqueue(ClaudeTurns.memoryToolUse(i, inputs.get(i)));
      }
      claude.enqueue(ClaudeTurns.finalText(inputs.size(), "Noted: metric units, Grenoble."));
      AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(claude.anthropicBaseUrl()).apiKey("test-key")
          .maxRetries(0).build();
      try {
        BetaToolRunner runner = client.beta().messages().toolRunner(ToolRunnerCreateParams.builder()
            .betaMemoryToolHandler(EngramMemoryToolHandler.of(engram, ALICE))
            .initialMessageParams(MessageCreateParams.builder()
                .model("claude-scripted")
                .maxTokens(1024)
                .addTool(BetaMemoryTool20250818.builder().build())
                .addUserMessage("I moved from Lyon to Grenoble; remember it.")
                .build())
            .build());
        List<BetaMessage> turns = new ArrayList<>();
        runner.forEach(turns::add);
        assertThat(turns).hasSize(inputs.size() + 1);
      } finally {
        client.close();
      }

      List<ModelServer.Recorded> requests = claude.requests();
      assertThat(requests).hasSize(inputs.size() + 1);
      assertThat(requests.get(0).body().path("tools").toString()).contains("memory_20250818");
      List<String> results = new ArrayList<>();
      for (ModelServer.Recorded r : requests.subList(1, requests.size())) {
        List<JsonNode> blocks = ClaudeTurns.toolResults(r);
        assertThat(blocks).hasSize(1);
        results.add(ClaudeTurns.text(blocks.get(0)));
      }
      assertThat(results).containsExactly(
          "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and "
              + "node_modules:\n0\t/memories",
          "File created successfully at: /memories/user.md",
          "The memory file has been edited. Here's a snippet of /memories/user.md with line numbers:\n"
              + "     1\tPrefers metric units.\n     2\tLives in Grenoble.",
          "No replacement was performed, old_str `Paris` did not appear verbatim in /memories/user.md.",
          "Error: The path /memories/../../etc/passwd contains a '..' segment. Paths may not walk out of or around "
              + "/memories",
          "Here's the content of /memories/user.md with line numbers:\n     1\tPrefers metric units.\n"
              + "     2\tLives in Grenoble.");

      MemoryEntry file = MemoryFiles.bind(engram, ALICE).entry("/memories/user.md").orElseThrow();
      assertThat(file.scope()).isEqualTo("app/users/alice");
      assertThat(engram.history(ALICE, file.entryId())).extracting(MemoryEvent::kind)
          .containsExactly(EventKind.CREATE, EventKind.UPDATE);
    }
  }
}

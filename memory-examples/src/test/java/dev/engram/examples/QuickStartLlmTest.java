/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.reasoner.llm.LlmReasoner;
import dev.engram.reasoner.llm.ModelServer;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The walk-through with {@code --reasoner llm}, configured from the environment, against a local OpenAI-compatible server. */
class QuickStartLlmTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theWalkThroughRunsWithTheLlmReasonerAgainstALocalServer() {
    try (ModelServer server = ModelServer.start()) {
      server.otherwise(QuickStartLlmTest::answer);
      LlmReasoner reasoner = LlmReasoner.fromEnvironment(
          Map.of("OPENAI_BASE_URL", server.openAiBaseUrl(), "ENGRAM_LLM_MODEL", "llama3.1"));
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      QuickStart.run(new InMemoryMemoryStore(), new E5SmallEmbedder(), reasoner,
          new PrintStream(buf, true, StandardCharsets.UTF_8));
      String out = buf.toString(StandardCharsets.UTF_8);

      assertThat(out).contains("APPENDED  [ACTIVE v1 r1 [preferences]] Prefers metric units.")
          .contains("DEDUPED  revision still 3")
          .contains("[ACTIVE v1 r3 [equipment, core]] Owns dumbbells and a bench.")
          .contains("topics curated").contains("blurb");
      assertThat(server.requests()).extracting(ModelServer.Recorded::job)
          .as("one call per new write (views included), none for the duplicate, views for the correction, "
              + "then one per dirty topic with active entries")
          .startsWith("tag", "tag", "tag", "views")
          .containsOnlyOnce("views")
          .endsWith("curate");
      assertThat(server.requests()).allSatisfy(r -> {
        assertThat(r.path()).isEqualTo("/v1/chat/completions");
        assertThat(r.header("Authorization")).isNull();
      });
    }
  }

  /** A stand-in model that files under the hints (adding core for equipment) and writes a blurb per topic. */
  private static ModelServer.Reply answer(ModelServer.Recorded r) {
    ObjectNode a = JSON.createObjectNode();
    if (r.job().equals("tag")) {
      a.put("namespace", r.schema().path("properties").path("namespace").path("enum").path(0).asText());
      Matcher hints = Pattern.compile("Caller's topic hints: (.*)").matcher(r.user());
      String hint = hints.find() && !hints.group(1).startsWith("(") ? hints.group(1).split(", ")[0] : "general";
      a.putArray("topics").add(hint);
      if (hint.equals("equipment")) {
        a.withArray("topics").add("core");
      }
      a.put("type", hint.equals("preferences") ? "preference" : "fact");
      Matcher c = Pattern.compile("(?s)<<<BEGIN CONTENT>>>\n(.*?)\n<<<END CONTENT>>>").matcher(r.user());
      a.put("content", c.find() ? c.group(1) : "");
      a.putNull("duplicate_of");
      if (r.schema().path("properties").has("views")) {
        a.putObject("views").put("gist", a.get("content").asText()).putArray("questions");
      }
    } else {
      Matcher t = Pattern.compile("Topic: (\\S+)").matcher(r.user());
      a.putArray("ops");
      a.put("blurb", t.find() ? "Notes about " + t.group(1) + "." : null);
    }
    return ModelServer.Reply.answer(a);
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.benchmarks.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetrievalCommandTest {
  private static final String DATA = """
      [
        {"sample_id": "conv-a",
         "conversation": {
           "speaker_a": "Ana", "speaker_b": "Ben",
           "session_1_date_time": "1:56 pm on 8 May, 2023",
           "session_1": [
             {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben, how was your weekend?"},
             {"speaker": "Ben", "dia_id": "D1:2", "text": "Great, I adopted a golden retriever puppy named Biscuit!"},
             {"speaker": "Ana", "dia_id": "D1:3", "text": "Congrats! I spent mine repairing my old bicycle."}
           ],
           "session_2_date_time": "10:00 am on 15 May, 2023",
           "session_2": [
             {"speaker": "Ben", "dia_id": "D2:1", "text": "Biscuit chewed my favourite running shoes."},
             {"speaker": "Ana", "dia_id": "D2:2", "text": "Oh no! I started a pottery class on Tuesday.",
              "blip_caption": "a photo of a clay bowl"}
           ]
         },
         "qa": [
           {"question": "What is the name of Ben's puppy?", "answer": "Biscuit", "category": 4, "evidence": ["D1:2"]},
           {"question": "What did Ana repair?", "answer": "her bicycle", "category": 4, "evidence": ["D1:3"]},
           {"question": "What did Ana see at the zoo?", "category": 5, "adversarial_answer": "a lion", "evidence": []}
         ]},
        {"sample_id": "conv-b",
         "conversation": {
           "speaker_a": "Cy", "speaker_b": "Dee",
           "session_1_date_time": "9:00 am on 1 June, 2023",
           "session_1": [
             {"speaker": "Cy", "dia_id": "D1:1", "text": "I booked flights to Lisbon for the conference."},
             {"speaker": "Dee", "dia_id": "D1:2", "text": "Nice. My sister just moved to Toronto."},
             {"speaker": "Cy", "dia_id": "D1:3", "text": "Nice."}
           ]
         },
         "qa": [
           {"question": "Where is Cy flying for the conference?", "answer": "Lisbon", "category": 4, "evidence": ["D1:1"]}
         ]}
      ]
      """;

  @Test
  void writesRankingsForEveryQuestionWithTheEvidenceTurnFirst(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("tiny.json");
    Files.writeString(data, DATA, StandardCharsets.UTF_8);
    Path out = dir.resolve("rankings.json");
    ByteArrayOutputStream log = new ByteArrayOutputStream();

    int code = Main.run(new String[] {"retrieval", "--data", data.toString(), "--mode", "fts", "--out", out.toString(),
        "--k", "3"}, System.out, new PrintStream(log, true, StandardCharsets.UTF_8));

    assertThat(code).as(log.toString(StandardCharsets.UTF_8)).isZero();
    Map<String, List<String>> rankings = new ObjectMapper().readValue(out.toFile(), new TypeReference<>() {});
    assertThat(rankings).containsOnlyKeys("conv-a#0", "conv-a#1", "conv-a#2", "conv-b#0");
    assertThat(rankings.get("conv-a#0")).first().isEqualTo("D1:2");
    assertThat(rankings.get("conv-a#1")).first().isEqualTo("D1:3");
    assertThat(rankings.get("conv-b#0")).first().isEqualTo("D1:1");
    assertThat(rankings.values()).allSatisfy(r -> assertThat(r).hasSizeLessThanOrEqualTo(3).doesNotHaveDuplicates());
    assertThat(rankings.get("conv-b#0")).allSatisfy(id -> assertThat(id).isIn("D1:1", "D1:2", "D1:3"));
  }

  @Test
  void rejectsAnUnknownModeWithAUsageError(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("tiny.json");
    Files.writeString(data, DATA, StandardCharsets.UTF_8);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"retrieval", "--data", data.toString(), "--mode", "bm25", "--out",
        dir.resolve("r.json").toString()}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--mode must be fts, vector, hybrid or auto");
  }

  @Test
  void scopesAreValidNamespaces() {
    assertThat(RetrievalCommand.scopeOf("realtalk_Chat_1_Emi_Elise")).isEqualTo("bench/locomo/realtalk_Chat_1_Emi_Elise");
    assertThat(RetrievalCommand.scopeOf("conv 42/b")).isEqualTo("bench/locomo/conv_42_b");
    assertThat(RetrievalCommand.scopeOf("..")).isEqualTo("bench/locomo/_..");
  }

  @Test
  void questionsAreAskedAtTheEndOfTheLastSessionDay(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("tiny.json");
    Files.writeString(data, DATA, StandardCharsets.UTF_8);
    List<LocomoFile.Conversation> conversations = LocomoFile.read(data);
    assertThat(conversations).extracting(TurnSources::referenceTime).containsExactly(
        java.time.Instant.parse("2023-05-16T00:00:00Z"), java.time.Instant.parse("2023-06-02T00:00:00Z"));
  }

  @Test
  void theTurnDocumentPathIsGone(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("tiny.json");
    Files.writeString(data, DATA, StandardCharsets.UTF_8);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"retrieval", "--data", data.toString(), "--mode", "fts", "--out",
        dir.resolve("r.json").toString(), "--ingest", "write"}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option --ingest");
  }
}

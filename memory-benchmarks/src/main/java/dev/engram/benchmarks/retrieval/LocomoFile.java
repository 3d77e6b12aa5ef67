/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A conversation file in the LoCoMo layout: a JSON array of samples, each with a {@code sample_id}, a
 * {@code conversation} object ({@code session_<n>} turn lists with their {@code session_<n>_date_time})
 * and a {@code qa} list of questions.
 */
public final class LocomoFile {
  private static final Pattern SESSION = Pattern.compile("session_(\\d+)");

  private LocomoFile() {}

  /** One dialog turn. */
  public record Turn(String diaId, String speaker, String text, @Nullable String caption) {}

  /** One session: its number, its date as written in the file (may be empty), and its turns in order. */
  public record Session(int number, String dateTime, List<Turn> turns) {}

  /** One question; {@code key} is {@code "<sample_id>#<index in qa>"}. */
  public record Question(String key, int index, String question, int category) {}

  /** One sample: a conversation and its questions. */
  public record Conversation(String sampleId, List<Session> sessions, List<Question> questions) {
    public int turnCount() {
      return sessions.stream().mapToInt(s -> s.turns().size()).sum();
    }
  }

  public static List<Conversation> read(Path file) throws IOException {
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    if (root == null || !root.isArray()) {
      throw new IOException(file + " is not a JSON array of samples (LoCoMo layout)");
    }
    List<Conversation> out = new ArrayList<>();
    for (JsonNode sample : root) {
      out.add(conversation(file, sample));
    }
    return out;
  }

  private static Conversation conversation(Path file, JsonNode sample) throws IOException {
    String sampleId = text(sample, "sample_id");
    JsonNode conv = sample.get("conversation");
    if (sampleId == null || conv == null || !conv.isObject()) {
      throw new IOException(file + ": every sample needs a sample_id and a conversation object");
    }
    Map<Integer, JsonNode> sessions = new TreeMap<>();
    for (Map.Entry<String, JsonNode> f : conv.properties()) {
      Matcher m = SESSION.matcher(f.getKey());
      if (m.matches() && f.getValue().isArray()) {
        sessions.put(Integer.parseInt(m.group(1)), f.getValue());
      }
    }
    List<Session> list = new ArrayList<>();
    for (Map.Entry<Integer, JsonNode> s : sessions.entrySet()) {
      String date = text(conv, "session_" + s.getKey() + "_date_time");
      List<Turn> turns = new ArrayList<>();
      for (JsonNode t : s.getValue()) {
        String diaId = text(t, "dia_id");
        String speaker = text(t, "speaker");
        if (diaId == null || speaker == null) {
          throw new IOException(file + ": " + sampleId + " session " + s.getKey() + " has a turn without dia_id or speaker");
        }
        String body = text(t, "text");
        turns.add(new Turn(diaId, speaker, body == null ? "" : body, text(t, "blip_caption")));
      }
      list.add(new Session(s.getKey(), date == null ? "" : date, List.copyOf(turns)));
    }
    List<Question> questions = new ArrayList<>();
    JsonNode qa = sample.get("qa");
    if (qa != null && qa.isArray()) {
      for (int i = 0; i < qa.size(); i++) {
        JsonNode q = qa.get(i);
        String question = text(q, "question");
        int category = q.path("category").asInt(0);
        questions.add(new Question(sampleId + "#" + i, i, question == null ? "" : question, category));
      }
    }
    return new Conversation(sampleId, List.copyOf(list), List.copyOf(questions));
  }

  private static @Nullable String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.adk.example;

import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.adk.tools.LoadMemoryTool;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A scripted model for ADK, so the example runs offline: asked a question ("...?"), it calls ADK's
 * {@link LoadMemoryTool} with the question, then answers with what the tool returned; told something,
 * it acknowledges it.
 */
final class ScriptedGemini extends BaseLlm {
  ScriptedGemini() {
    super("scripted-gemini");
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    List<Content> contents = request.contents();
    Content last = contents.get(contents.size() - 1);
    Optional<FunctionResponse> memory = parts(last).stream().flatMap(p -> p.functionResponse().stream()).findFirst();
    if (memory.isPresent()) {
      List<String> found = new java.util.ArrayList<>();
      texts(memory.get().response().orElse(Map.of()), found);
      return Flowable.just(reply(Part.fromText(found.isEmpty() ? "I have nothing about that in memory."
          : "From memory: " + String.join(" | ", found))));
    }
    String said = parts(last).stream().flatMap(p -> p.text().stream()).findFirst().orElse("");
    Optional<String> loadMemory = request.tools().entrySet().stream()
        .filter(t -> t.getValue() instanceof LoadMemoryTool).map(Map.Entry::getKey).findFirst();
    if (said.endsWith("?") && loadMemory.isPresent()) {
      return Flowable.just(reply(Part.fromFunctionCall(loadMemory.get(), Map.of("query", said))));
    }
    return Flowable.just(reply(Part.fromText("Got it.")));
  }

  /** Every {@code text} value in the tool's response (a JSON-like tree of maps and lists). */
  private static void texts(Object node, List<String> out) {
    if (node instanceof Map<?, ?> m) {
      m.forEach((k, v) -> {
        if ("text".equals(k) && v instanceof String t) {
          out.add(t);
        } else {
          texts(v, out);
        }
      });
    } else if (node instanceof List<?> l) {
      l.forEach(v -> texts(v, out));
    }
  }

  private static List<Part> parts(Content c) {
    return c.parts().orElse(List.of());
  }

  private static LlmResponse reply(Part part) {
    return LlmResponse.builder().content(Content.builder().role("model").parts(List.of(part)).build()).build();
  }

  @Override
  public BaseLlmConnection connect(LlmRequest request) {
    throw new UnsupportedOperationException("the scripted model has no live connection");
  }
}

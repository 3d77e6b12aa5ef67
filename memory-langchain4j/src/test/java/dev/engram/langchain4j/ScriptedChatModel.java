/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * A chat model that plays a script: each step sees the request (messages and tool specifications)
 * and answers with text or tool calls, which the AI service runs as it would for a provider's model.
 * Every request is kept.
 */
final class ScriptedChatModel implements ChatModel {
  private final Deque<Function<ChatRequest, AiMessage>> steps = new ArrayDeque<>();
  final List<ChatRequest> requests = new ArrayList<>();

  synchronized ScriptedChatModel then(Function<ChatRequest, AiMessage> step) {
    steps.add(step);
    return this;
  }

  static AiMessage toolCall(String name, String arguments) {
    return AiMessage.from(ToolExecutionRequest.builder().id("call-" + name).name(name).arguments(arguments).build());
  }

  static AiMessage say(String text) {
    return AiMessage.from(text);
  }

  @Override
  public synchronized ChatResponse doChat(ChatRequest request) {
    requests.add(request);
    Function<ChatRequest, AiMessage> step = steps.poll();
    if (step == null) {
      throw new IllegalStateException("the script has no step left for: " + request.messages());
    }
    return ChatResponse.builder().aiMessage(step.apply(request)).build();
  }
}

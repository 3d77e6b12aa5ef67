/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * A chat model that plays a script instead of calling a service: each step sees the prompt and
 * answers, either with text or with tool calls, which run through Spring AI's own
 * {@link ToolCallingManager} exactly as a provider's model would run them. Every prompt is kept.
 */
final class ScriptedChatModel implements ChatModel {
  private final Deque<Function<Prompt, AssistantMessage>> steps = new ArrayDeque<>();
  private final ToolCallingManager tools = ToolCallingManager.builder().build();
  final List<Prompt> prompts = new ArrayList<>();

  synchronized ScriptedChatModel then(Function<Prompt, AssistantMessage> step) {
    steps.add(step);
    return this;
  }

  static AssistantMessage toolCall(String name, String arguments) {
    return AssistantMessage.builder().content("")
        .toolCalls(List.of(new AssistantMessage.ToolCall("call-" + name, "function", name, arguments))).build();
  }

  static AssistantMessage say(String text) {
    return new AssistantMessage(text);
  }

  @Override
  public synchronized ChatResponse call(Prompt prompt) {
    Prompt current = prompt;
    while (true) {
      prompts.add(current);
      Function<Prompt, AssistantMessage> step = steps.poll();
      if (step == null) {
        throw new IllegalStateException("the script has no step left for: " + current.getContents());
      }
      ChatResponse response = new ChatResponse(List.of(new Generation(step.apply(current))));
      if (!response.hasToolCalls()) {
        return response;
      }
      ToolExecutionResult result = tools.executeToolCalls(current, response);
      current = new Prompt(result.conversationHistory(), current.getOptions());
    }
  }

  @Override
  public ChatOptions getDefaultOptions() {
    return new DefaultToolCallingChatOptions();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * An offline stand-in for a chat model, so that the example runs without a key or a network: a
 * message starting with "Remember:" becomes a {@code memory_write} call, any other message a
 * {@code memory_search} call, and the answer is made from the tool's result. Tool calls run through
 * Spring AI's {@link ToolCallingManager}, as they do for a provider's model. Swap in any real
 * {@link ChatModel} (OpenAI, Anthropic, Ollama) and the rest of the application stays the same.
 */
final class RuleBasedChatModel implements ChatModel {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ToolCallingManager tools = ToolCallingManager.builder().build();

  @Override
  public ChatResponse call(Prompt prompt) {
    Prompt current = prompt;
    while (true) {
      ChatResponse response = new ChatResponse(List.of(new Generation(reply(current.getInstructions()))));
      if (!response.hasToolCalls()) {
        return response;
      }
      ToolExecutionResult result = tools.executeToolCalls(current, response);
      current = new Prompt(result.conversationHistory(), current.getOptions());
    }
  }

  private static AssistantMessage reply(List<Message> messages) {
    Message last = messages.get(messages.size() - 1);
    if (last instanceof ToolResponseMessage results) {
      return new AssistantMessage(answer(results.getResponses().get(0)));
    }
    String text = last instanceof UserMessage user && user.getText() != null ? user.getText().strip() : "";
    ObjectNode args = JSON.createObjectNode();
    String tool;
    if (text.toLowerCase(Locale.ROOT).startsWith("remember:")) {
      tool = "memory_write";
      args.put("content", text.substring("remember:".length()).strip());
    } else {
      tool = "memory_search";
      args.put("query", text);
    }
    return AssistantMessage.builder().content("")
        .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", tool, args.toString()))).build();
  }

  private static String answer(ToolResponseMessage.ToolResponse response) {
    JsonNode result;
    try {
      result = JSON.readTree(response.responseData());
    } catch (java.io.IOException e) {
      return "The memory tool answered something I cannot read.";
    }
    if (result.has("error")) {
      return "The memory tool refused: " + result.get("error").asText();
    }
    if (response.name().equals("memory_write")) {
      return "Noted (" + result.path("outcome").asText() + ").";
    }
    List<String> found = new ArrayList<>();
    result.findValues("content").forEach(c -> found.add(c.asText()));
    return found.isEmpty() ? "I have nothing remembered about that." : "From memory: " + String.join(" ", found);
  }

  @Override
  public ChatOptions getDefaultOptions() {
    return new DefaultToolCallingChatOptions();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An offline stand-in for a chat model, so that the example runs without a key or a network: a
 * message starting with "Remember:" becomes a {@code memory_write} call, any other message a
 * {@code memory_search} call, and the answer is made from the tool's result. The AI service runs the
 * tool calls as it does for a provider's model. Swap in any real {@link ChatModel} and the rest of
 * the program stays the same.
 */
final class RuleBasedChatModel implements ChatModel {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    ChatMessage last = messages.get(messages.size() - 1);
    AiMessage reply;
    if (last instanceof ToolExecutionResultMessage result) {
      reply = AiMessage.from(answer(result));
    } else {
      // the retriever appends remembered context below the user's own first line
      String text = last instanceof UserMessage user ? user.singleText().strip().split("\n", 2)[0] : "";
      ObjectNode args = JSON.createObjectNode();
      String tool;
      if (text.toLowerCase(Locale.ROOT).startsWith("remember:")) {
        tool = "memory_write";
        args.put("content", text.substring("remember:".length()).strip());
      } else {
        tool = "memory_search";
        args.put("query", text);
      }
      reply = AiMessage.from(ToolExecutionRequest.builder().id("call-1").name(tool).arguments(args.toString()).build());
    }
    return ChatResponse.builder().aiMessage(reply).build();
  }

  private static String answer(ToolExecutionResultMessage message) {
    JsonNode result;
    try {
      result = JSON.readTree(message.text());
    } catch (java.io.IOException e) {
      return "The memory tool answered something I cannot read.";
    }
    if (result.has("error")) {
      return "The memory tool refused: " + result.get("error").asText();
    }
    if (message.toolName().equals("memory_write")) {
      return "Noted (" + result.path("outcome").asText() + ").";
    }
    List<String> found = new ArrayList<>();
    result.findValues("content").forEach(c -> found.add(c.asText()));
    return found.isEmpty() ? "I have nothing remembered about that." : "From memory: " + String.join(" ", found);
  }
}

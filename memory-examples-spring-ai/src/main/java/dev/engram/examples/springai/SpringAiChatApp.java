/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples.springai;

import dev.engram.springai.EngramMemoryAdvisor;
import dev.engram.springai.EngramToolCallbackProvider;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application with a {@link ChatClient} whose model remembers through Engram: the
 * starter defines the memory (from {@code engram.*} properties), the memory tools and the advisor;
 * the application adds its chat model and passes each user's id as the conversation id. The
 * conversations themselves are kept as captured sources through the starter's chat memory repository.
 * Two users talk to the same client; neither ever sees the other's memory.
 *
 * <p>Run: {@code mvn -q -pl memory-examples-spring-ai -am package -DskipTests exec:java} (in memory), or with
 * {@code -Dexec.args=--engram.store=sqlite:memory.db} to keep the memory in a file.
 */
@SpringBootApplication
public class SpringAiChatApp {

  /**
   * The chat model; replace with a provider's (e.g. spring-ai-starter-model-openai).
   *
   * @return an offline, rule-based model
   */
  @Bean
  ChatModel chatModel() {
    return new RuleBasedChatModel();
  }

  /**
   * The chat client with the memory tools and the memory advisor from the starter, and a window chat
   * memory over the starter's repository (each conversation kept as Engram captured sources).
   *
   * @param model the chat model
   * @param tools the memory tools
   * @param memory the memory advisor
   * @param conversations the chat memory repository
   * @return the client
   */
  @Bean
  ChatClient chatClient(ChatModel model, EngramToolCallbackProvider tools, EngramMemoryAdvisor memory,
      ChatMemoryRepository conversations) {
    ChatMemory window = MessageWindowChatMemory.builder().chatMemoryRepository(conversations).maxMessages(20).build();
    return ChatClient.builder(model).defaultToolCallbacks(tools)
        .defaultAdvisors(MessageChatMemoryAdvisor.builder(window).build(), memory).build();
  }

  /**
   * Starts the application, runs two users' conversations and returns the transcript.
   *
   * @param args Spring Boot arguments, e.g. {@code --engram.store=sqlite:memory.db}
   * @return the transcript lines
   */
  public static List<String> run(String... args) {
    SpringApplication app = new SpringApplication(SpringAiChatApp.class);
    app.setDefaultProperties(java.util.Map.of(
        "engram.grants-resolver", "app/user/{id}",
        "spring.main.banner-mode", "off",
        "spring.main.web-application-type", "none"));
    List<String> transcript = new ArrayList<>();
    try (ConfigurableApplicationContext context = app.run(args)) {
      ChatClient client = context.getBean(ChatClient.class);
      say(client, transcript, "alice", "Remember: I keep my bike in the blue shed.");
      say(client, transcript, "bob", "Where is my bike?");
      say(client, transcript, "alice", "Where is my bike?");
    }
    return transcript;
  }

  private static void say(ChatClient client, List<String> transcript, String user, String message) {
    String answer = client.prompt().user(message)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, user)).call().content();
    transcript.add(user + "> " + message);
    transcript.add("assistant> " + answer);
  }

  /**
   * Runs the example and prints the transcript.
   *
   * @param args Spring Boot arguments
   */
  public static void main(String[] args) {
    run(args).forEach(System.out::println);
  }
}

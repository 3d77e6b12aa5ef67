/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spring.boot;

import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.LlmReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.agent.MemoryMode;
import dev.engram.agent.MemoryResource;
import dev.engram.agent.Preload;
import dev.engram.springai.EngramChatMemoryRepository;
import dev.engram.springai.EngramMemoryAdvisor;
import dev.engram.springai.EngramToolCallbackProvider;
import dev.engram.springai.EngramVectorStore;
import dev.engram.springai.GrantsResolver;
import dev.engram.spi.EmbedderOptions;
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbedderSpec;
import dev.engram.spi.StoreSpec;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Defines Engram's beans from {@code engram.*} properties. Every bean backs off when the application
 * defines its own of the same type: a {@link MemoryStore}, {@link Reasoner}, {@link Embedder},
 * {@link Engram}, {@link GrantsResolver}, {@link MemoryResource}, {@link EngramToolCallbackProvider},
 * {@link EngramMemoryAdvisor}, {@link ChatMemoryRepository} or {@link EngramVectorStore}. The tool
 * provider, the advisor and the chat memory repository exist only when there is a {@link GrantsResolver}
 * (from {@code engram.grants-resolver} or the application): without trusted grants there is no memory
 * for a conversation.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@EnableConfigurationProperties(EngramProperties.class)
public class EngramAutoConfiguration {
  private static final Logger LOG = LoggerFactory.getLogger(EngramAutoConfiguration.class);

  /**
   * The store named by {@code engram.store} ({@link StoreSpec}: {@code memory}, {@code sqlite:FILE},
   * {@code postgres:URL}, or the scheme of any other store on the class path). The context closes it,
   * after the {@link Engram} bean that uses it.
   *
   * @param properties the settings
   * @return the store
   * @throws InvalidInputException naming {@code engram.store} if it is malformed or names a store whose
   *     module is missing
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean({MemoryStore.class, Engram.class})
  public MemoryStore engramMemoryStore(EngramProperties properties) {
    StoreSpec spec = StoreSpec.parse("engram.store", properties.getStore() == null ? "" : properties.getStore());
    LOG.debug("Engram store: {}", spec);
    return spec.open();
  }

  /**
   * The reasoner named by {@code engram.reasoner}.
   *
   * @param properties the settings
   * @return the reasoner
   * @throws InvalidInputException if {@code engram.reasoner} names no reasoner of this build
   */
  @Bean
  @ConditionalOnMissingBean({Reasoner.class, Engram.class})
  public Reasoner engramReasoner(EngramProperties properties) {
    String name = lower(properties.getReasoner());
    if (name.equals("deterministic")) {
      return new DeterministicReasoner();
    }
    if (name.equals("llm")) {
      // configured from ENGRAM_LLM_PROVIDER / ENGRAM_LLM_MODEL / OPENAI_* / ANTHROPIC_*; a missing key
      // fails the first write naming the variable
      return LlmReasoner.fromEnvironment();
    }
    throw new InvalidInputException("engram.reasoner", "'" + name
        + "' is not a reasoner of this build: use deterministic or llm, or define a dev.engram.spi.Reasoner bean");
  }

  /**
   * The embedder named by {@code engram.embedder} ({@link EmbedderSpec}: {@code e5}, the default,
   * {@code minilm}, {@code openai} with the {@code engram.openai.*} settings, {@code auto} for the one whose
   * vectors the store holds, or {@code none}, which defines no embedder).
   *
   * @param properties the settings
   * @param store the store, which {@code auto} looks at
   * @return the embedder
   * @throws InvalidInputException naming {@code engram.embedder} if it names no embedder on the class path,
   *     or the setting of the openai embedder that is malformed
   */
  @Bean
  @ConditionalOnMissingBean({Embedder.class, Engram.class})
  @Conditional(EmbedderNamed.class)
  public Embedder engramEmbedder(EngramProperties properties, ObjectProvider<MemoryStore> store) {
    EmbedderSpec spec = EmbedderSpec.parse("engram.embedder", properties.getEmbedder() == null ? "" : properties.getEmbedder());
    Optional<EmbedderProvider> provider = spec.isAuto()
        ? spec.resolve(store.getObject(), List.of(), EmbedderSpec.parse("engram.embedder", "e5"))
        : spec.provider();
    EngramProperties.OpenAi openai = properties.getOpenai();
    EmbedderOptions options = EmbedderOptions.builder()
        .setting("base-url", openai.getBaseUrl())
        .setting("api-key", openai.getApiKey())
        .setting("model", openai.getModel())
        .setting("dimension", Integer.toString(openai.getDimension()))
        .build();
    return provider.map(p -> p.create(options)).orElseThrow(
        () -> new InvalidInputException("engram.embedder", "auto found no embedder for the store's vectors"));
  }

  /**
   * The Engram facade over the store, reasoner and (optional) embedder.
   *
   * @param store the store
   * @param reasoner the reasoner
   * @param embedder the embedder, if any
   * @return the facade, closed when the context closes; it borrows the store ({@link
   *     EngramBuilder#borrowedStore}) and never closes it: the store bean's own definition does (this
   *     starter's closes its store; an application's bean is closed, or kept open, as the application
   *     declared it)
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Engram engram(MemoryStore store, Reasoner reasoner, ObjectProvider<Embedder> embedder) {
    EngramBuilder builder = Engram.builder().borrowedStore(store).reasoner(reasoner);
    embedder.ifAvailable(builder::embedder);
    return builder.build();
  }

  /**
   * Scheduled maintenance from {@code engram.maintenance.grants} (each namespace its own grants) and
   * {@code engram.maintenance.interval}: dirty topics curated and captured sources flushed on the interval, on
   * the runner's own daemon thread, with work claims on stores that have them. Closed with the context (and
   * with the engine).
   *
   * @param engram the facade
   * @param properties the settings
   * @return the started runner
   * @throws InvalidInputException naming {@code engram.maintenance.interval} if it is out of range
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "engram.maintenance", name = "grants")
  public dev.engram.MaintenanceRunner engramMaintenance(Engram engram, EngramProperties properties) {
    EngramProperties.Maintenance m = properties.getMaintenance();
    List<Grants> grants = m.getGrants().stream().map(Grants::of).toList();
    dev.engram.MaintenanceOptions options;
    try {
      options = dev.engram.MaintenanceOptions.builder().interval(m.getInterval()).build();
    } catch (InvalidInputException e) {
      throw new InvalidInputException("engram.maintenance.interval", e.getMessage());
    }
    return engram.operator().startMaintenance(grants, options);
  }

  /**
   * Grants from {@code engram.grants-resolver}, a namespace template such as {@code app/user/{id}}
   * ({@link GrantsResolver#template(String)}: one id alphabet, Spring AI's default conversation id
   * refused).
   *
   * @param properties the settings
   * @return the resolver
   * @throws InvalidInputException if the template is malformed
   * @throws NullPointerException if {@code engram.grants-resolver} is unset
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "engram", name = "grants-resolver")
  public GrantsResolver engramGrantsResolver(EngramProperties properties) {
    return GrantsResolver.template(java.util.Objects.requireNonNull(properties.getGrantsResolver()));
  }

  /**
   * The agent memory resource from {@code engram.mode}, {@code engram.auto-scan},
   * {@code engram.context-bytes} and {@code engram.preload.*}.
   *
   * @param engram the facade
   * @param properties the settings
   * @return the resource
   * @throws InvalidInputException if a setting is out of range, naming it
   */
  @Bean
  @ConditionalOnMissingBean
  public MemoryResource engramMemoryResource(Engram engram, EngramProperties properties) {
    MemoryMode mode = switch (lower(properties.getMode())) {
      case "read-write", "read_write" -> MemoryMode.READ_WRITE;
      case "read" -> MemoryMode.READ;
      default -> throw new InvalidInputException("engram.mode", "'" + properties.getMode() + "' is not a mode: use read-write or read");
    };
    EngramProperties.Preload p = properties.getPreload();
    Preload.Settings preload = p.isAll() ? Preload.all() : p.isCore() ? Preload.core() : Preload.none();
    preload = preload.topics(p.getTopics().toArray(String[]::new)).limit(p.getLimit()).maxChars(p.getMaxChars());
    return MemoryResource.builder(engram).mode(mode).autoScan(properties.isAutoScan())
        .contextBytes(properties.getContextBytes()).preload(preload).build();
  }

  /**
   * The memory tools for Spring AI, with grants from the conversation id in the tool context.
   *
   * @param resource the memory resource
   * @param resolver the application's grants resolver
   * @return the provider
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(GrantsResolver.class)
  public EngramToolCallbackProvider engramToolCallbackProvider(MemoryResource resource, GrantsResolver resolver) {
    return EngramToolCallbackProvider.fromToolContext(resource, resolver);
  }

  /**
   * The memory advisor for Spring AI's ChatClient, with grants from the conversation id in the
   * advisor context.
   *
   * @param resource the memory resource
   * @param resolver the application's grants resolver
   * @param properties the {@code engram.*} settings; {@code engram.capture-user-turns} (default false)
   *     decides whether the advisor also captures each user message as a source of the conversation
   * @return the advisor
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(GrantsResolver.class)
  public EngramMemoryAdvisor engramMemoryAdvisor(MemoryResource resource, GrantsResolver resolver,
      EngramProperties properties) {
    return EngramMemoryAdvisor.builder(resource, resolver).captureUserTurns(properties.isCaptureUserTurns()).build();
  }

  /**
   * Spring AI chat memory kept as captured sources (conversation id = source session, grants from the
   * resolver), unless {@code engram.chat-memory.enabled=false} or the application has its own
   * {@link ChatMemoryRepository}.
   *
   * @param engram the facade
   * @param resolver the application's grants resolver
   * @return the repository
   */
  @Bean
  @ConditionalOnMissingBean(ChatMemoryRepository.class)
  @ConditionalOnBean(GrantsResolver.class)
  @ConditionalOnProperty(prefix = "engram.chat-memory", name = "enabled", havingValue = "true", matchIfMissing = true)
  public EngramChatMemoryRepository engramChatMemoryRepository(Engram engram, GrantsResolver resolver) {
    return EngramChatMemoryRepository.fromConversationId(engram, resolver);
  }

  /** The Spring AI vector store, when {@code engram.vector-store.namespace} is set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.ai.vectorstore.VectorStore")
  static class VectorStoreConfiguration {
    /**
     * The vector store over {@code engram.vector-store.namespace}.
     *
     * @param engram the facade
     * @param properties the settings
     * @return the vector store
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "engram.vector-store", name = "namespace")
    EngramVectorStore engramVectorStore(Engram engram, EngramProperties properties) {
      EngramProperties.VectorStore settings = properties.getVectorStore();
      return EngramVectorStore.builder(engram, Grants.of(java.util.Objects.requireNonNull(settings.getNamespace())))
          .topic(settings.getTopic()).build();
    }
  }

  /** Matches unless {@code engram.embedder} is {@code none}: unset, it is the default {@code e5}. */
  static final class EmbedderNamed implements Condition {
    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
      String value = context.getEnvironment().getProperty("engram.embedder");
      return value == null || !lower(value).equals("none");
    }
  }

  private static String lower(@org.jspecify.annotations.Nullable String value) {
    return value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
  }

  /**
   * Observations of Engram (memory-observation on the class path): the {@code Engram}, reasoner and
   * embedder beans are wrapped when the application has an {@code ObservationRegistry}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"dev.engram.observation.EngramObservation", "io.micrometer.observation.ObservationRegistry"})
  static class Observations {
    /**
     * @param registry the application's registry, if any
     * @param store the store the engine is built with
     * @return the post-processor that wraps the beans
     */
    @Bean
    static org.springframework.beans.factory.config.BeanPostProcessor engramObservations(
        ObjectProvider<io.micrometer.observation.ObservationRegistry> registry, ObjectProvider<MemoryStore> store) {
      return new EngramObservations(registry, store);
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import dev.engram.InvalidInputException;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.EntryViews;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.ModelCall;
import dev.engram.spi.ModelCallListener;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagFailure;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Reasoner} backed by a language model: it files each write (namespace among the grants,
 * topics reusing the visible ones, {@code core} for durable profile facts, entry type, normalized
 * wording, duplicate among the candidates shown), curates topic slices, writes views, and extracts
 * cited memories from windows of captured sources ({@code Engram.flush}), and incubates experience from
 * windows of captured task outcomes ({@code Engram.experience().incubate}) for a person to review.
 *
 * <pre>{@code
 * Reasoner r = LlmReasoner.fromEnvironment();   // ENGRAM_LLM_PROVIDER, ENGRAM_LLM_MODEL, OPENAI_* / ANTHROPIC_*
 * Reasoner r = LlmReasoner.builder()
 *     .tagger(ModelConfig.openAiCompatible("gpt-4.1-mini").baseUrl("http://127.0.0.1:11434/v1"))
 *     .curator(ModelConfig.anthropic("claude-haiku-4-5"))
 *     .timeout(Duration.ofSeconds(15)).maxAttempts(3).deadline(Duration.ofSeconds(20))
 *     .build();
 * }</pre>
 *
 * <p>Every answer is untrusted. It must match the job's JSON schema, name only a granted namespace
 * and only candidates or entries it was shown, stay within the size limits, and reword without
 * adding numbers or names the input does not contain; otherwise the call fails with an
 * {@link LlmException}. Failures of the model call itself (timeouts, HTTP errors after the retries,
 * the {@link Builder#deadline deadline}, 401/403, truncation, refusals, non-JSON) are
 * {@link LlmException}s too, with the kind and a message that never contains the key (nor a long piece
 * of it, in any spelling). A failed curation, extraction or views call changes nothing.
 *
 * <p>A failed tag does not lose the write: by default ({@link TagFailure#FILE_DETERMINISTICALLY}) the
 * engine files it the way the deterministic reasoner does (first granted namespace, the caller's
 * topics or {@code general}, the caller's type or {@code fact}, the content as written), with a warning
 * on the {@code WriteResult} and a WARN log line. {@link Builder#tagFailure
 * tagFailure(TagFailure.FAIL)} makes such a write fail instead, storing nothing, unless its caller gave
 * its type and topics (a write that needs no model). The caller's type and topics always win over the
 * model's: the model fills only what the caller left open.
 *
 * <p>Cost: one model call per write (the views come with the tag answer when the engine asks for
 * them), one per curated topic slice, one per extracted window (views included). Prompts are bounded: at most 100 visible topics, 10 duplicate
 * candidates of at most 300 characters, 50 curation entries of at most 1,000 characters. Usage is
 * reported to the {@link Builder#usageListener listener} and logged at debug level, without content.
 *
 * <p>Thread-safe; share one instance. It starts no threads of its own; the JDK {@code HttpClient} it
 * builds (unless one is given) runs its own selector thread.
 */
public final class LlmReasoner implements Reasoner {
  private static final Logger LOG = LoggerFactory.getLogger(LlmReasoner.class);
  /** Environment variable choosing the provider: {@code openai} or {@code anthropic}. */
  public static final String PROVIDER_VARIABLE = "ENGRAM_LLM_PROVIDER";
  /** Environment variable naming the model. */
  public static final String MODEL_VARIABLE = "ENGRAM_LLM_MODEL";
  /** The model {@link #fromEnvironment()} uses for OpenAI when {@value #MODEL_VARIABLE} is unset. */
  public static final String DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
  /** The model {@link #fromEnvironment()} uses for Anthropic when {@value #MODEL_VARIABLE} is unset. */
  public static final String DEFAULT_ANTHROPIC_MODEL = "claude-haiku-4-5";
  /** The longest one operation takes unless {@link Builder#deadline} says otherwise: 20 seconds. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(20);

  private final ModelClient tagger;
  private final ModelClient curator;
  private final ModelClient viewer;
  private final ModelClient extractor;
  private final TagJob tagJob = new TagJob();
  private final CurateJob curateJob = new CurateJob();
  private final ViewsJob viewsJob = new ViewsJob();
  private final ExtractJob extractJob = new ExtractJob();
  private final IncubateJob incubateJob = new IncubateJob();
  private final TagFailure tagFailure;
  private final ModelCallListener calls;

  private LlmReasoner(Builder b, Map<String, String> env) {
    this.calls = call -> { };
    Duration connect = min(min(b.timeout, b.deadline), Duration.ofSeconds(10));
    HttpClient http = b.httpClient != null ? b.httpClient : HttpClient.newBuilder()
        .connectTimeout(connect)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    HttpTransport transport = new HttpTransport(http, b.timeout, b.maxAttempts, b.retryBackoff, b.deadline);
    ModelConfig tag = Objects.requireNonNull(b.tagger);
    this.tagger = client(tag, env, transport, b.listener);
    this.curator = b.curator == null ? tagger : client(b.curator, env, transport, b.listener);
    this.viewer = b.viewer == null ? tagger : client(b.viewer, env, transport, b.listener);
    this.extractor = b.extractor == null ? tagger : client(b.extractor, env, transport, b.listener);
    this.tagFailure = b.tagFailure;
  }

  /** This reasoner's clients and settings, reporting to {@code calls}. */
  private LlmReasoner(LlmReasoner of, ModelCallListener calls) {
    this.tagger = of.tagger;
    this.curator = of.curator;
    this.viewer = of.viewer;
    this.extractor = of.extractor;
    this.tagFailure = of.tagFailure;
    this.calls = calls;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static ModelClient client(ModelConfig c, Map<String, String> env, HttpTransport transport,
      ModelUsageListener listener) {
    String key = c.apiKey();
    if (key == null) {
      String fromEnv = env.get(c.apiKeyVariable());
      key = fromEnv == null || fromEnv.isBlank() ? null : fromEnv.strip();
    }
    return c.provider() == Provider.ANTHROPIC
        ? new AnthropicClient(c, key, transport, listener)
        : new OpenAiClient(c, key, transport, listener);
  }

  /**
   * The documented default, configured from the process environment; see
   * {@link #fromEnvironment(Map)}.
   *
   * @return the reasoner
   * @throws InvalidInputException if a variable holds an invalid value
   */
  public static LlmReasoner fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * A reasoner for tagging, curation and views configured from {@code env}:
   * {@value #PROVIDER_VARIABLE} ({@code openai} or {@code anthropic}; by default whichever key is
   * set, OpenAI first, else whichever base URL is set, else OpenAI), {@value #MODEL_VARIABLE}
   * (default {@value #DEFAULT_OPENAI_MODEL} / {@value #DEFAULT_ANTHROPIC_MODEL}),
   * {@code OPENAI_API_KEY} / {@code OPENAI_BASE_URL}, {@code ANTHROPIC_API_KEY} /
   * {@code ANTHROPIC_BASE_URL}. Building succeeds without a key; the first call then fails with an
   * {@link LlmException} naming the variable to set, unless the base URL is local.
   *
   * @param env the variables to read
   * @return the reasoner
   * @throws InvalidInputException if a variable holds an invalid value (naming it)
   * @throws NullPointerException if {@code env} is null
   */
  public static LlmReasoner fromEnvironment(Map<String, String> env) {
    Objects.requireNonNull(env, "env");
    String provider = value(env, PROVIDER_VARIABLE);
    boolean anthropic;
    if (provider != null) {
      switch (provider.toLowerCase(Locale.ROOT)) {
        case "openai" -> anthropic = false;
        case "anthropic" -> anthropic = true;
        default -> throw new InvalidInputException(PROVIDER_VARIABLE,
            "is '" + provider + "'; expected openai or anthropic");
      }
    } else {
      anthropic = value(env, "OPENAI_API_KEY") == null
          && (value(env, "ANTHROPIC_API_KEY") != null
              || value(env, "OPENAI_BASE_URL") == null && value(env, "ANTHROPIC_BASE_URL") != null);
    }
    String model = value(env, MODEL_VARIABLE);
    ModelConfig config;
    try {
      config = anthropic
          ? ModelConfig.anthropic(model != null ? model : DEFAULT_ANTHROPIC_MODEL)
          : ModelConfig.openAiCompatible(model != null ? model : DEFAULT_OPENAI_MODEL);
      String baseUrl = value(env, config.baseUrlVariable());
      if (baseUrl != null) {
        config = config.baseUrl(baseUrl);
      }
    } catch (InvalidInputException e) {
      throw new InvalidInputException(anthropic ? "ANTHROPIC_BASE_URL / " + MODEL_VARIABLE
          : "OPENAI_BASE_URL / " + MODEL_VARIABLE, e.getMessage());
    }
    return builder().tagger(config).environment(env).build();
  }

  private static @Nullable String value(Map<String, String> env, String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? null : v.strip();
  }

  /** @return a builder; {@link Builder#tagger} is required */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Files one write in one model call; when the engine will embed the version
   * ({@link TagRequest#viewsWanted()}), the same answer carries the views. The caller's type, when
   * given, is the only type the answer's schema allows.
   *
   * @throws LlmException when the call fails or its answer is refused (the engine then acts as
   *     {@link #tagFailure()} says)
   */
  @Override
  public TagProposal tag(TagRequest request) {
    TagJob.Tagged t;
    try {
      t = run(tagger, tagJob, new TagJob.Input(request, request.viewsWanted()));
    } catch (LlmException e) {
      if (e.kind() == LlmException.Kind.MISSING_KEY || e.kind() == LlmException.Kind.UNAUTHORIZED) {
        // a configuration problem the engine's own warning cannot name; the message holds no key
        LOG.warn("tag call failed: {}", e.getMessage());
      }
      throw e;
    }
    TagProposal p = t.proposal();
    return t.views() == null ? p
        : new TagProposal(p.namespace(), p.topics(), p.type(), p.content(), p.duplicateOf(), t.views());
  }

  /**
   * Tags and, when {@code views} is true, writes the views in the same model call.
   *
   * @param request what to file
   * @param views whether the answer should carry views
   * @return the validated proposal and the views (null when not asked for or invalid)
   */
  TagJob.Tagged tagWithViews(TagRequest request, boolean views) {
    return run(tagger, tagJob, new TagJob.Input(request, views));
  }

  /**
   * As configured with {@link Builder#tagFailure}; by default {@link TagFailure#FILE_DETERMINISTICALLY}.
   */
  @Override
  public TagFailure tagFailure() {
    return tagFailure;
  }

  @Override
  public boolean curates() {
    return true;
  }

  @Override
  public List<CurateOp> curate(CurateRequest request) {
    if (request.entries().isEmpty()) {
      return List.of();
    }
    return run(curator, curateJob, request);
  }

  @Override
  public boolean extracts() {
    return true;
  }

  /**
   * Extracts the memories of one window in one model call: facts, preferences, decisions, events, plans
   * and constraints, each citing the window's records it rests on, durable profile facts also under
   * {@code core}, with views when the engine will embed them. An answer citing anything but a record of
   * the window, or adding names or numbers its cited records lack, is an {@link LlmException}.
   */
  @Override
  public List<ExtractedMemory> extract(ExtractRequest request) {
    if (request.window().isEmpty()) {
      return List.of();
    }
    return run(extractor, extractJob, request);
  }

  @Override
  public boolean incubates() {
    return true;
  }

  /**
   * Incubates experience from one window of task outcomes in one model call, with the extractor's model:
   * situation, action, outcome and lesson of each outcome worth learning from, citing the outcomes it
   * rests on. An answer citing anything but an outcome of the window, or adding names or numbers its
   * cited outcomes lack, is an {@link LlmException}. What it returns only ever becomes pending review items.
   */
  @Override
  public List<dev.engram.spi.IncubatedExperience> incubate(dev.engram.spi.IncubateRequest request) {
    if (request.window().isEmpty()) {
      return List.of();
    }
    return run(extractor, incubateJob, request);
  }

  /** Model-written views; on any failure it logs and returns null, so the engine uses its rule-based views. */
  @Override
  public @Nullable EntryViews views(
      String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
    try {
      return run(viewer, viewsJob, new ViewsJob.Input(content, disclosure, glossary, path));
    } catch (LlmException e) {
      LOG.warn("views call to {} failed ({}), rule-based views are used instead", viewer.config().model(), e.kind());
      return null;
    }
  }

  /**
   * A reasoner with the same models, clients and settings that also reports each model call, successful
   * or failed, to {@code listener}: the job ({@code tag}, {@code views}, {@code curate}, {@code extract},
   * {@code incubate}), the provider ({@code openai} or {@code anthropic}), the model, the tokens the
   * server reported (0 when it reported none, or no answer came) and whether the call failed (it could
   * not be made, or its answer was refused: a refused answer's tokens are counted). Listeners given to
   * earlier {@code reportingTo} calls of this reasoner keep receiving the calls too; what a listener
   * throws is logged and ignored.
   */
  @Override
  public LlmReasoner reportingTo(ModelCallListener listener) {
    Objects.requireNonNull(listener, "listener");
    ModelCallListener before = calls;
    return new LlmReasoner(this, call -> {
      before.onModelCall(call);
      listener.onModelCall(call);
    });
  }

  private <I, O> O run(ModelClient client, Job<I, O> job, I input) {
    ModelClient.Answer answer;
    try {
      answer = client.complete(
          new ModelClient.Call(job.name(), Prompts.system(job.rules()), job.prompt(input), job.schema(input)));
    } catch (RuntimeException e) {
      report(client, job.name(), 0, 0, true);
      throw e;
    }
    long in = Math.max(0, answer.usage().inputTokens());
    long out = Math.max(0, answer.usage().outputTokens());
    O value;
    try {
      value = job.read(answer.value(), input);
    } catch (RuntimeException e) {
      report(client, job.name(), in, out, true);
      throw e;
    }
    report(client, job.name(), in, out, false);
    return value;
  }

  /** The provider as model usage names it: {@code openai} (any OpenAI-compatible server) or {@code anthropic}. */
  static String providerName(Provider p) {
    return p == Provider.ANTHROPIC ? "anthropic" : "openai";
  }

  private void report(ModelClient client, String job, long in, long out, boolean failed) {
    try {
      calls.onModelCall(new ModelCall(job, providerName(client.config().provider()), client.config().model(), in, out,
          failed));
    } catch (RuntimeException e) {
      LOG.warn("model call listener failed: {}", e.toString());
    }
  }

  @Override
  public String toString() {
    return "LlmReasoner[tagger " + tagger.config() + ", curator " + curator.config() + ", extractor "
        + extractor.config() + "]";
  }

  /** Configures an {@link LlmReasoner}; each setting may be set once. */
  public static final class Builder {
    private @Nullable ModelConfig tagger;
    private @Nullable ModelConfig curator;
    private @Nullable ModelConfig viewer;
    private @Nullable ModelConfig extractor;
    private Duration timeout = Duration.ofSeconds(30);
    private int maxAttempts = 3;
    private Duration retryBackoff = Duration.ofMillis(500);
    private Duration deadline = DEFAULT_DEADLINE;
    private TagFailure tagFailure = TagFailure.FILE_DETERMINISTICALLY;
    private ModelUsageListener listener = usage -> { };
    private @Nullable HttpClient httpClient;
    private Map<String, String> env = System.getenv();

    private Builder() {}

    /**
     * @param config the model that files writes (required); also curates and writes views unless set apart
     * @return this builder
     * @throws NullPointerException if {@code config} is null
     */
    public Builder tagger(ModelConfig config) {
      this.tagger = Objects.requireNonNull(config, "tagger");
      return this;
    }

    /**
     * @param config the model that curates topic slices; defaults to the tagger
     * @return this builder
     * @throws NullPointerException if {@code config} is null
     */
    public Builder curator(ModelConfig config) {
      this.curator = Objects.requireNonNull(config, "curator");
      return this;
    }

    /**
     * @param config the model that writes views when they are asked for apart from a write; defaults to the tagger
     * @return this builder
     * @throws NullPointerException if {@code config} is null
     */
    public Builder viewer(ModelConfig config) {
      this.viewer = Objects.requireNonNull(config, "viewer");
      return this;
    }

    /**
     * @param config the model that extracts memories from captured sources; defaults to the tagger
     * @return this builder
     * @throws NullPointerException if {@code config} is null
     */
    public Builder extractor(ModelConfig config) {
      this.extractor = Objects.requireNonNull(config, "extractor");
      return this;
    }

    /**
     * @param timeout the limit for one HTTP exchange, body included (default 30 s); also bounds connecting.
     *     The {@link #deadline} of the whole operation bounds every exchange too
     * @return this builder
     * @throws InvalidInputException unless between 1 ms and 10 minutes
     * @throws NullPointerException if {@code timeout} is null
     */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(Duration.ofMinutes(10)) > 0) {
        throw new InvalidInputException("timeout", "must be between 1 ms and 10 minutes, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /**
     * @param attempts HTTP requests per call at most, first one included (default 3)
     * @return this builder
     * @throws InvalidInputException unless between 1 and 10
     */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1 || attempts > 10) {
        throw new InvalidInputException("maxAttempts", "must be between 1 and 10, was " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /**
     * @param backoff the wait before the first retry, doubled for each later one, plus jitter (default 500 ms)
     * @return this builder
     * @throws InvalidInputException if negative or above 30 s
     * @throws NullPointerException if {@code backoff} is null
     */
    public Builder retryBackoff(Duration backoff) {
      Objects.requireNonNull(backoff, "retryBackoff");
      if (backoff.isNegative() || backoff.compareTo(HttpTransport.MAX_WAIT) > 0) {
        throw new InvalidInputException("retryBackoff", "must be between 0 and 30 s, was " + backoff);
      }
      this.retryBackoff = backoff;
      return this;
    }

    /**
     * The longest one operation may take: one {@link #tag}, one curated slice, one views call or one
     * extracted window, every attempt and every wait between them included. An attempt waits at most
     * for what is left of it, and a retry that would pass it is not made; the call then fails with an
     * {@link LlmException} of kind {@code TIMEOUT} (or the kind of the last failure), saying so.
     *
     * @param deadline the bound of one operation (default {@link #DEFAULT_DEADLINE}, 20 s)
     * @return this builder
     * @throws InvalidInputException unless between 1 ms and 10 minutes
     * @throws NullPointerException if {@code deadline} is null
     */
    public Builder deadline(Duration deadline) {
      Objects.requireNonNull(deadline, "deadline");
      if (deadline.isNegative() || deadline.isZero() || deadline.compareTo(Duration.ofMinutes(10)) > 0) {
        throw new InvalidInputException("deadline", "must be between 1 ms and 10 minutes, was " + deadline);
      }
      this.deadline = deadline;
      return this;
    }

    /**
     * What the engine does with a write whose tag call failed (the model is down, late, refused, or
     * its answer was invalid). {@link TagFailure#FILE_DETERMINISTICALLY}, the default, files it
     * without the model (first granted namespace, the caller's topics or {@code general}, the caller's
     * type or {@code fact}, the content as written) and says so in a warning on the result and a WARN
     * log line; {@link TagFailure#FAIL} fails it with the {@link LlmException} and stores nothing. A
     * write whose caller gave its type and topics is filed from them either way.
     *
     * @param failure how a failed tag ends
     * @return this builder
     * @throws NullPointerException if {@code failure} is null
     */
    public Builder tagFailure(TagFailure failure) {
      this.tagFailure = Objects.requireNonNull(failure, "tagFailure");
      return this;
    }

    /**
     * @param listener receives the usage of every successful call
     * @return this builder
     * @throws NullPointerException if {@code listener} is null
     */
    public Builder usageListener(ModelUsageListener listener) {
      this.listener = Objects.requireNonNull(listener, "usageListener");
      return this;
    }

    /**
     * @param client the HTTP client to send with (its own timeouts and executor); by default one is built
     * @return this builder
     * @throws NullPointerException if {@code client} is null
     */
    public Builder httpClient(HttpClient client) {
      this.httpClient = Objects.requireNonNull(client, "httpClient");
      return this;
    }

    /**
     * @param env where the API keys of configs without an explicit key are read (default: the process environment)
     * @return this builder
     * @throws NullPointerException if {@code env} or a key or value in it is null
     */
    public Builder environment(Map<String, String> env) {
      this.env = Map.copyOf(Objects.requireNonNull(env, "environment"));
      return this;
    }

    /**
     * @return the reasoner; a missing key does not fail here, only the first call
     * @throws InvalidInputException if no tagger is set
     */
    public LlmReasoner build() {
      if (tagger == null) {
        throw new InvalidInputException("tagger", "is required: LlmReasoner.builder().tagger(ModelConfig.openAiCompatible(...))");
      }
      return new LlmReasoner(this, env);
    }
  }
}

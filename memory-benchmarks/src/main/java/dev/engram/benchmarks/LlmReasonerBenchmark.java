/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.LlmReasoner;
import dev.engram.reasoner.llm.ModelConfig;
import dev.engram.reasoner.llm.ModelUsage;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cost of the LLM write and curation paths with the model taken out: a loopback server answers
 * every OpenAI-compatible request at once with a valid answer, and reports usage the way a provider
 * does (prompt tokens = request characters / 4). Per write it measures model calls, prompt tokens,
 * the wall time of {@code Engram.write}, the model call's own time (HTTP round trip, as the reasoner's
 * usage reports it) and the difference: the engine's and the reasoner's own overhead. The baseline in
 * the same run is the same writes through the {@code DeterministicReasoner}.
 *
 * <pre>
 * java -jar memory-benchmarks.jar LlmReasonerBenchmark [--store memory|sqlite] [--seed 1000] [--writes 1000]
 *     [--curations 20]
 * </pre>
 */
public final class LlmReasonerBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CONTENT = Pattern.compile("(?s)<<<BEGIN CONTENT>>>\n(.*?)\n<<<END CONTENT>>>");
  private static final String[] WORDS = ("running cycling swimming piano guitar jazz blues coffee tea garden kettlebell "
      + "dumbbells bench marathon sunday monday tuesday dentist doctor sister brother daughter dog cat kitchen "
      + "office laptop train bus bicycle mountain lake river ocean book novel poetry chess football tennis rugby "
      + "bread pasta rice curry salad soup spring summer autumn winter morning evening night").split(" ");

  private LlmReasonerBenchmark() {}

  public static void main(String[] args) throws Exception {
    String storeKind = option(args, "--store", "memory");
    int seed = Integer.parseInt(option(args, "--seed", "1000"));
    int writes = Integer.parseInt(option(args, "--writes", "1000"));
    int curations = Integer.parseInt(option(args, "--curations", "20"));

    InstantModel model = InstantModel.start();
    try {
      List<ModelUsage> usage = new CopyOnWriteArrayList<>();
      LlmReasoner llm = LlmReasoner.builder()
          .tagger(ModelConfig.openAiCompatible("bench-model").baseUrl(model.baseUrl()))
          .usageListener(usage::add).environment(Map.of()).build();
      Grants grants = Grants.of("app/user/u1");
      Random random = new Random(42);

      // baseline: the same kind of writes with the deterministic reasoner, into a scope of the same size
      double[] baseline;
      try (MemoryStore store = store(storeKind, "baseline");
           Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
        for (int i = 0; i < seed; i++) {
          e.write(grants, sentence(random, i), WriteOptions.builder().topicsHint(topic(i)).build());
        }
        baseline = new double[writes];
        for (int i = 0; i < writes; i++) {
          String text = sentence(random, seed + i);
          long t0 = System.nanoTime();
          e.write(grants, text, WriteOptions.builder().topicsHint(topic(i)).build());
          baseline[i] = (System.nanoTime() - t0) / 1e6;
        }
      }

      try (MemoryStore store = store(storeKind, "llm");
           Engram e = Engram.builder().store(store).reasoner(llm).build()) {
        List<String> seeded = new ArrayList<>();
        for (int i = 0; i < seed; i++) {
          String text = sentence(random, 10_000 + i);
          seeded.add(text);
          e.write(grants, text, WriteOptions.builder().topicsHint(topic(i)).build());
        }
        // warm-up (JIT, connection)
        for (int i = 0; i < 200; i++) {
          e.write(grants, sentence(random, 20_000 + i), WriteOptions.builder().topicsHint(topic(i)).build());
        }
        usage.clear();
        model.requests.set(0);
        double[] wall = new double[writes];
        double[] http = new double[writes];
        double[] overhead = new double[writes];
        long[] prompt = new long[writes];
        int appended = 0;
        for (int i = 0; i < writes; i++) {
          String text = sentence(random, 30_000 + i);
          int before = usage.size();
          long t0 = System.nanoTime();
          WriteResult w = e.write(grants, text, WriteOptions.builder().topicsHint(topic(i)).build());
          wall[i] = (System.nanoTime() - t0) / 1e6;
          ModelUsage u = usage.get(before);
          http[i] = u.latency().toNanos() / 1e6;
          overhead[i] = wall[i] - http[i];
          prompt[i] = u.inputTokens();
          if (w.outcome() == WriteResult.Outcome.APPENDED) {
            appended++;
          }
        }
        int tagCalls = model.requests.get();

        model.requests.set(0);
        double[] dupWall = new double[writes];
        int deduped = 0;
        for (int i = 0; i < writes; i++) {
          long t0 = System.nanoTime();
          WriteResult w = e.write(grants, "  " + seeded.get(i % seeded.size()) + " ", WriteOptions.defaults());
          dupWall[i] = (System.nanoTime() - t0) / 1e6;
          if (w.outcome() == WriteResult.Outcome.DEDUPED) {
            deduped++;
          }
        }
        int dupCalls = model.requests.get();

        // curation of a 50-entry topic, re-dirtied by one write before each pass
        Grants cg = Grants.of("app/user/c1");
        for (int i = 0; i < 50; i++) {
          e.write(cg, sentence(random, 40_000 + i), WriteOptions.builder().topicsHint("fitness").build());
        }
        e.curate(cg);
        double[] curWall = new double[curations];
        double[] curHttp = new double[curations];
        long[] curPrompt = new long[curations];
        int curCalls = 0;
        for (int c = 0; c < curations; c++) {
          e.write(cg, sentence(random, 50_000 + c), WriteOptions.builder().topicsHint("fitness").build());
          usage.clear();
          model.requests.set(0);
          long t0 = System.nanoTime();
          e.curate(cg);
          curWall[c] = (System.nanoTime() - t0) / 1e6;
          curCalls += model.requests.get();
          for (ModelUsage u : usage) {
            curHttp[c] += u.latency().toNanos() / 1e6;
            curPrompt[c] += u.inputTokens();
          }
        }

        System.out.printf(Locale.ROOT, "store %s, scope of %d entries, %d measured writes, %d curations%n%n",
            storeKind, seed + 200, writes, curations);
        System.out.println("| measure | result | target |");
        System.out.println("|---|---|---|");
        System.out.printf(Locale.ROOT, "| model calls per new write | %.3f (%d appended) | 1 |%n",
            tagCalls / (double) writes, appended);
        System.out.printf(Locale.ROOT, "| prompt tokens per tag, p50 / max | %d / %d | ≤ 1,500 |%n",
            (long) percentile(toDouble(prompt), 50), Arrays.stream(prompt).max().orElse(0));
        System.out.printf(Locale.ROOT, "| write wall time p50 / p99 | %.3f / %.3f ms | |%n",
            percentile(wall, 50), percentile(wall, 99));
        System.out.printf(Locale.ROOT, "| model call (HTTP round trip) p50 / p99 | %.3f / %.3f ms | |%n",
            percentile(http, 50), percentile(http, 99));
        System.out.printf(Locale.ROOT, "| engine + reasoner overhead above the round trip p50 / p99 | %.3f / %.3f ms | p50 ≤ 1 ms |%n",
            percentile(overhead, 50), percentile(overhead, 99));
        System.out.printf(Locale.ROOT, "| baseline: deterministic write p50 / p99 | %.3f / %.3f ms | |%n",
            percentile(baseline, 50), percentile(baseline, 99));
        System.out.printf(Locale.ROOT, "| canonical duplicates: model calls, deduped, p50 | %d calls, %d / %d, %.3f ms | 0 calls |%n",
            dupCalls, deduped, writes, percentile(dupWall, 50));
        System.out.printf(Locale.ROOT, "| curate of a 50-entry topic: model calls per pass | %.2f | 1 |%n",
            curCalls / (double) curations);
        System.out.printf(Locale.ROOT, "| curate: prompt tokens p50 | %d | |%n", (long) percentile(toDouble(curPrompt), 50));
        System.out.printf(Locale.ROOT, "| curate: wall p50, of which model call p50 | %.3f ms, %.3f ms | |%n",
            percentile(curWall, 50), percentile(curHttp, 50));
      }
    } finally {
      model.close();
    }
  }

  private static MemoryStore store(String kind, String name) throws IOException {
    if (kind.equals("sqlite")) {
      Path dir = Files.createTempDirectory("engram-llm-bench");
      return new SqliteMemoryStore(dir.resolve(name + ".db"));
    }
    if (!kind.equals("memory")) {
      throw new IllegalArgumentException("--store must be memory or sqlite, was " + kind);
    }
    return new InMemoryMemoryStore();
  }

  private static String topic(int i) {
    return List.of("fitness", "music", "food", "family", "travel", "work", "hobbies", "health").get(i % 8);
  }

  /** A sentence of realistic length (60-120 characters) from a small vocabulary, made unique by its number. */
  private static String sentence(Random r, int n) {
    StringBuilder s = new StringBuilder("The user mentioned");
    int words = 6 + r.nextInt(8);
    for (int i = 0; i < words; i++) {
      s.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
    }
    return s.append(" (note ").append(n).append(").").toString();
  }

  private static double[] toDouble(long[] v) {
    return Arrays.stream(v).asDoubleStream().toArray();
  }

  private static double percentile(double[] values, double p) {
    double[] s = values.clone();
    Arrays.sort(s);
    int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
    return s[Math.max(0, Math.min(s.length - 1, i))];
  }

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }

  /** Answers every chat completion at once with a valid answer for its job, and usage of characters / 4. */
  static final class InstantModel implements AutoCloseable {
    final HttpServer server;
    final AtomicInteger requests = new AtomicInteger();

    private InstantModel(HttpServer server) {
      this.server = server;
    }

    static InstantModel start() throws IOException {
      // the JDK server writes headers and body separately; without TCP_NODELAY the client waits for a delayed ACK
      System.setProperty("sun.net.httpserver.nodelay", "true");
      HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      s.setExecutor(Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "instant-model");
        t.setDaemon(true);
        return t;
      }));
      InstantModel m = new InstantModel(s);
      s.createContext("/v1/chat/completions", m::handle);
      s.start();
      return m;
    }

    String baseUrl() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private void handle(HttpExchange x) throws IOException {
      try (x) {
        requests.incrementAndGet();
        JsonNode req = JSON.readTree(x.getRequestBody().readAllBytes());
        String system = req.path("messages").path(0).path("content").asText();
        String user = req.path("messages").path(1).path("content").asText();
        JsonNode schema = req.path("response_format").path("json_schema").path("schema");
        String job = req.path("response_format").path("json_schema").path("name").asText();
        ObjectNode answer = JSON.createObjectNode();
        if (job.equals("tag")) {
          answer.put("namespace", schema.path("properties").path("namespace").path("enum").path(0).asText());
          Matcher hints = Pattern.compile("Caller's topic hints: (.*)").matcher(user);
          String hint = hints.find() && !hints.group(1).startsWith("(") ? hints.group(1).split(", ")[0] : "general";
          answer.putArray("topics").add(hint);
          answer.put("type", "fact");
          Matcher c = CONTENT.matcher(user);
          answer.put("content", c.find() ? c.group(1) : "");
          answer.putNull("duplicate_of");
          if (schema.path("properties").has("views")) {
            ObjectNode v = answer.putObject("views");
            v.put("gist", answer.get("content").asText());
            v.putArray("questions");
          }
        } else if (job.equals("curate")) {
          answer.putArray("ops");
          answer.putNull("blurb");
        } else {
          answer.put("gist", "An entry.");
          ArrayNode q = answer.putArray("questions");
          q.add("What is it?");
        }
        String content = answer.toString();
        ObjectNode root = JSON.createObjectNode();
        root.put("id", "bench");
        root.put("object", "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content);
        choice.put("finish_reason", "stop");
        root.putObject("usage").put("prompt_tokens", (system.length() + user.length()) / 4)
            .put("completion_tokens", content.length() / 4);
        byte[] out = root.toString().getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "application/json");
        x.sendResponseHeaders(200, out.length);
        try (OutputStream os = x.getResponseBody()) {
          os.write(out);
        }
      }
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}

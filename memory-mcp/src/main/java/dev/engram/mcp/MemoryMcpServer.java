/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.InvalidInputException;
import dev.engram.agent.MemoryFiles;
import dev.engram.agent.MemoryFilesOptions;
import dev.engram.agent.MemoryMode;
import dev.engram.agent.AgentRuntime;
import dev.engram.agent.MemoryResource;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.LlmReasoner;
import dev.engram.MemoryException;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbedderOptions;
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbedderSpec;
import dev.engram.spi.StoreSpec;
import dev.engram.spi.Reasoner;
import dev.engram.spi.MemoryStore;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar memory-mcp.jar --store memory|sqlite:FILE|postgres:URL --grant NS [--grant NS …]
 * [--mode read|read-write] [--tool-profile memory|files|all] [--embedder auto|e5|minilm|none] [--reasoner deterministic|llm] [--runtime RUNTIME] [--http PORT
 * --tokens FILE [--bind ADDRESS] [--max-concurrent-per-token N]] [--max-request-bytes BYTES]}. Over stdio stdout carries the protocol only; every log line goes to
 * stderr. A configuration it cannot start with exits with status 2 and says why.
 */
@Command(name = "memory-mcp", mixinStandardHelpOptions = true, versionProvider = MemoryMcpServer.Version.class,
    description = "Engram memory as an MCP server (stdio, or streamable HTTP with --http).",
    sortOptions = false)
public final class MemoryMcpServer implements Callable<Integer> {
  static final int STARTUP_ERROR = 2;
  /** The embedder {@code auto} falls back to for a store without vectors. */
  static final String DEFAULT_EMBEDDER = "e5";
  static final String GRANTS_KEY = "engram.grants";
  static final String ENDPOINT = "/mcp";
  static final int DEFAULT_MAX_REQUEST_BYTES = 272 * 1024;
  static final int DEFAULT_MAX_CONCURRENT_PER_TOKEN = 8;
  static final int MIN_REQUEST_BYTES = 4 * 1024;
  static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;
  /** How long the end of stdin waits for the answers still owed. */
  static final Duration STDIO_GRACE = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(MemoryMcpServer.class);

  @Option(names = "--store", required = true, paramLabel = "STORE",
      description = "memory | sqlite:FILE | postgres:URL (a jdbc:postgresql:// or postgresql:// URL)")
  String store = "";

  @Option(names = "--grant", paramLabel = "NS", description = "A namespace the client may use (stdio; repeatable).")
  List<String> grants = new ArrayList<>();

  @Option(names = "--mode", paramLabel = "MODE", description = "read | read-write (default read-write)")
  String mode = "read-write";

  @Option(names = "--embedder", paramLabel = "EMBEDDER",
      description = "auto | e5 | minilm | none: the model of the vectors for hybrid search, or full text only; auto (the "
          + "default) takes the one whose vectors the store holds, e5 for a store without vectors")
  String embedder = "auto";

  @Option(names = "--reasoner", paramLabel = "REASONER", description = "deterministic | llm (default deterministic)")
  String reasoner = "deterministic";

  @Option(names = {"--runtime", "--client-type"}, paramLabel = "RUNTIME",
      description = "The agent runtime of every client, for memory_boot: a runtime id such as claudecode, codex, "
          + "opencode, pi, openclaw, hermes, zcode, dsh or mcp (any id of lowercase letters, digits and '-' works); "
          + "default: read from each client's name.")
  @Nullable String clientType;

  @Option(names = "--tool-profile", paramLabel = "PROFILE",
      description = "memory | files | all: the memory_* tools (default), the memory_file_* tools of Claude's memory "
          + "tool protocol over /memories, or both.")
  String toolProfile = "memory";

  @Option(names = "--http", paramLabel = "PORT", description = "Serve streamable HTTP on this port instead of stdio.")
  @Nullable Integer httpPort;

  @Option(names = "--tokens", paramLabel = "FILE",
      description = "With --http: lines of 'TOKEN GRANT [GRANT ...]'; a request without a known bearer token is refused.")
  @Nullable Path tokens;

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "With --http: the address to listen on (default 127.0.0.1).")
  String bind = "127.0.0.1";

  @Option(names = "--max-request-bytes", paramLabel = "BYTES",
      description = "The largest HTTP request body or stdio line taken, in bytes (default " + DEFAULT_MAX_REQUEST_BYTES
          + ": the tools' 256 KiB argument limit and 16 KiB for the JSON-RPC envelope).")
  int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;

  @Option(names = "--max-concurrent-per-token", paramLabel = "N",
      description = "With --http: the most POST and DELETE requests of one token handled at a time; more get 429 "
          + "(default " + DEFAULT_MAX_CONCURRENT_PER_TOKEN + ").")
  int maxConcurrentPerToken = DEFAULT_MAX_CONCURRENT_PER_TOKEN;

  private final PrintStream protocolOut;

  MemoryMcpServer(PrintStream protocolOut) {
    this.protocolOut = protocolOut;
  }

  /**
   * Runs the server until stdin closes (stdio) or the process is stopped (HTTP).
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    PrintStream protocol = System.out;
    System.setOut(System.err);
    CommandLine cli = new CommandLine(new MemoryMcpServer(protocol));
    cli.setOut(new java.io.PrintWriter(System.err, true));
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof StartupException) {
        System.err.println("memory-mcp: " + e.getMessage());
        return STARTUP_ERROR;
      }
      LOG.error("memory-mcp stopped", e);
      return 1;
    });
    int status = cli.execute(args);
    System.exit(status);
  }

  @Override
  public Integer call() throws Exception {
    MemoryMode memoryMode = switch (mode) {
      case "read" -> MemoryMode.READ;
      case "read-write" -> MemoryMode.READ_WRITE;
      default -> throw new StartupException("--mode must be read or read-write, was '" + mode + "'");
    };
    if (!reasoner.equals("deterministic") && !reasoner.equals("llm")) {
      throw new StartupException("--reasoner must be deterministic or llm, was '" + reasoner + "'");
    }
    EmbedderSpec embedderSpec;
    StoreSpec storeSpec;
    try {
      embedderSpec = EmbedderSpec.parse("--embedder", embedder);
      storeSpec = StoreSpec.parse("--store", store);
    } catch (InvalidInputException e) {
      throw new StartupException(e.getMessage());
    }
    if (!toolProfile.equals("memory") && !toolProfile.equals("files") && !toolProfile.equals("all")) {
      throw new StartupException("--tool-profile must be memory, files or all, was '" + toolProfile + "'");
    }
    if (maxRequestBytes < MIN_REQUEST_BYTES || maxRequestBytes > MAX_REQUEST_BYTES) {
      throw new StartupException("--max-request-bytes must be between " + MIN_REQUEST_BYTES + " and " + MAX_REQUEST_BYTES
          + ", was " + maxRequestBytes);
    }
    if (maxConcurrentPerToken < 1 || maxConcurrentPerToken > 1024) {
      throw new StartupException("--max-concurrent-per-token must be between 1 and 1024, was " + maxConcurrentPerToken);
    }
    AgentRuntime fixedClient = null;
    if (clientType != null) {
      try {
        fixedClient = AgentRuntime.of(clientType);
      } catch (InvalidInputException e) {
        throw new StartupException("--runtime: " + e.getMessage());
      }
    }
    BearerTokens tokenMap = null;
    Grants stdioGrants = null;
    if (httpPort != null) {
      if (httpPort < 1 || httpPort > 65535) {
        throw new StartupException("--http must be a port between 1 and 65535, was " + httpPort);
      }
      if (tokens == null) {
        throw new StartupException("--http needs --tokens FILE: every HTTP request must carry a known bearer token");
      }
      if (!grants.isEmpty()) {
        throw new StartupException("--grant applies to stdio only; over HTTP the grants come from --tokens");
      }
      tokenMap = BearerTokens.read(tokens);
    } else {
      if (tokens != null) {
        throw new StartupException("--tokens applies to --http only");
      }
      if (grants.isEmpty()) {
        throw new StartupException("at least one --grant NS is required (e.g. --grant app/user/alice)");
      }
      try {
        stdioGrants = Grants.of(grants);
      } catch (InvalidGrantException e) {
        throw new StartupException("--grant: " + e.getMessage());
      }
    }
    MemoryStore memoryStore = openStore(storeSpec);
    // the LLM reasoner reads ENGRAM_LLM_PROVIDER, ENGRAM_LLM_MODEL, OPENAI_* / ANTHROPIC_*; a missing key
    // fails the first write with the name of the variable to set, as the library documents
    Reasoner chosen = reasoner.equals("llm") ? LlmReasoner.fromEnvironment() : new DeterministicReasoner();
    EngramBuilder builder = Engram.builder().store(memoryStore).reasoner(chosen);
    String vectors = "none (full text only)";
    Optional<EmbedderProvider> provider;
    try {
      provider = embedderSpec.resolve(memoryStore, stdioGrants != null ? List.copyOf(stdioGrants.visibleScopes())
          : Objects.requireNonNull(tokenMap).visibleScopes(), EmbedderSpec.parse("--embedder", DEFAULT_EMBEDDER));
    } catch (RuntimeException e) {
      memoryStore.close();
      throw new StartupException("--embedder " + embedder + ": " + e.getMessage(), e);
    }
    if (provider.isPresent()) {
      Embedder model = provider.get().create(EmbedderOptions.defaults());
      builder.embedder(model);
      vectors = provider.get().name() + " (" + model.profile().id() + (embedderSpec.isAuto() ? ", auto" : "") + ")";
    }
    Engram engram = builder.build();
    MemoryResource resource = MemoryResource.builder(engram).mode(memoryMode).autoScan(true).source("mcp").origin("mcp").build();
    McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
    String version = Version.version();
    var tools = toolProfile.equals("files") ? List.<dev.engram.agent.ToolSpec>of() : resource.tools();
    var fileTools = toolProfile.equals("memory") ? List.<dev.engram.agent.ToolSpec>of() : MemoryFiles.toolSpecs(memoryMode);
    MemoryFilesOptions fileOptions = MemoryFilesOptions.builder().mode(memoryMode).source("mcp").build();
    java.util.function.Function<Grants, MemoryFiles> files = fileTools.isEmpty() ? null
        : g -> MemoryFiles.bind(engram, g, fileOptions);
    Runtime.getRuntime().addShutdownHook(new Thread(engram::close, "memory-mcp-close"));
    if (tokenMap == null) {
      Grants fixed = stdioGrants;
      StdioTransport transport = new StdioTransport(mapper, System.in, protocolOut, maxRequestBytes, STDIO_GRACE);
      McpMemory memory = new McpMemory(resource, exchange -> fixed, mapper, fixedClient, files);
      McpSyncServer server = memory.build(McpServer.sync(transport), version, tools, fileTools);
      LOG.info("memory-mcp {} on stdio: store {}, mode {}, tools {}, embedder {}, {} grant(s)", version, storeSpec.describe(),
          mode, toolProfile, vectors, fixed.namespaces().size());
      transport.serve();
      server.closeGracefully();
      return 0;
    }
    BearerTokens known = tokenMap;
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new StartupException("--bind: unknown address '" + bind + "'");
    }
    List<String> hosts = new ArrayList<>(List.of("127.0.0.1:*", "localhost:*", "[::1]:*"));
    if (!address.isLoopbackAddress()) {
      hosts.add(bind + ":*");
    }
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(mapper)
        .mcpEndpoint(ENDPOINT)
        .securityValidator(DefaultServerTransportSecurityValidator.builder()
            .allowedHosts(hosts)
            .allowedOrigins(List.of("http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"))
            .build())
        .maxRequestSize(maxRequestBytes)
        .contextExtractor((HttpServletRequest request) -> {
          // set by the HttpGuard in front of the transport, after it checked the token
          Object t = request.getAttribute(HttpGuard.TOKEN_ATTRIBUTE);
          return t instanceof BearerTokens.Token token
              ? McpTransportContext.create(Map.of(GRANTS_KEY, token.grants()))
              : McpTransportContext.EMPTY;
        })
        .build();
    McpMemory memory = new McpMemory(resource, exchange -> (Grants) exchange.transportContext().get(GRANTS_KEY), mapper,
        fixedClient, files);
    memory.build(McpServer.sync(transport), version, tools, fileTools);

    Server jetty = new Server();
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
    connector.setHost(bind);
    connector.setPort(httpPort);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    HttpGuard guard = new HttpGuard(known, mapper, ENDPOINT, maxRequestBytes, maxConcurrentPerToken);
    FilterHolder guarded = new FilterHolder(guard);
    guarded.setAsyncSupported(true);
    context.addFilter(guarded, "/*", EnumSet.of(DispatcherType.REQUEST));
    ErrorHandler quiet = new ErrorHandler();
    quiet.setShowStacks(false);
    quiet.setShowCauses(false);
    quiet.setShowMessageInTitle(false);
    jetty.setErrorHandler(quiet);
    ServletHolder holder = new ServletHolder(transport);
    holder.setAsyncSupported(true);
    context.addServlet(holder, ENDPOINT);
    jetty.setHandler(context);
    try {
      jetty.start();
    } catch (Exception e) {
      throw new StartupException("--http " + httpPort + ": cannot listen on " + bind + " (" + e.getMessage() + ")", e);
    }
    LOG.info("memory-mcp {} on http://{}:{}{}: store {}, mode {}, tools {}, embedder {}", version, bind,
        connector.getLocalPort(), ENDPOINT, storeSpec.describe(), mode, toolProfile, vectors);
    jetty.join();
    return 0;
  }

  /** Opens the store {@code spec} names, creating a missing SQLite file; what fails is a startup error. */
  static MemoryStore openStore(StoreSpec spec) {
    try {
      return spec.open();
    } catch (MemoryException e) {
      throw new StartupException(e instanceof InvalidInputException ? e.getMessage()
          : "--store " + spec.describe() + ": cannot open it (" + e.getMessage() + ")", e);
    } catch (RuntimeException e) {
      throw new StartupException("--store " + spec.describe() + ": cannot open it (" + e.getClass().getSimpleName() + ")", e);
    }
  }

  /** The version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    static String version() {
      String v = MemoryMcpServer.class.getPackage().getImplementationVersion();
      return v != null ? v : "dev";
    }

    @Override
    public String[] getVersion() {
      return new String[] {"memory-mcp " + version()};
    }
  }
}

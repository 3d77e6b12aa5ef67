/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static dev.engram.agent.ArgumentSchema.array;
import static dev.engram.agent.ArgumentSchema.integer;
import static dev.engram.agent.ArgumentSchema.object;
import static dev.engram.agent.ArgumentSchema.oneOf;
import static dev.engram.agent.ArgumentSchema.properties;
import static dev.engram.agent.ArgumentSchema.string;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.BootBlock;
import dev.engram.BootNodeException;
import dev.engram.ChangeOptions;
import dev.engram.EntryPatch;
import dev.engram.ListOptions;
import dev.engram.ParentNotFoundException;
import dev.engram.PathConflictException;
import dev.engram.RecentMemory;
import dev.engram.UntrustedText;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryException;
import dev.engram.Namespaces;
import dev.engram.NotFoundException;
import dev.engram.ReadOptions;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The tool specs of one {@link MemoryResource} and the dispatcher that runs a call for some grants. */
final class Tools {
  static final String READ = "memory_read";
  static final String SEARCH = "memory_search";
  static final String WRITE = "memory_write";
  static final String CORRECT = "memory_correct";
  static final String FORGET = "memory_forget";
  static final String BOOT = "memory_boot";
  static final String OUTCOME = OutcomeTool.NAME;
  static final String GET = PathTools.GET;
  static final String BROWSE = PathTools.BROWSE;
  static final String DOMAINS = PathTools.DOMAINS;
  static final String WRITE_PATH = PathTools.WRITE_PATH;
  static final String UPDATE = "memory_update";
  static final String GLOSSARY_ADD = "memory_glossary_add";
  static final String GLOSSARY_REMOVE = "memory_glossary_remove";
  static final String MOVE = "memory_move";
  static final String CAPTURE = CaptureTool.NAME;
  static final int MAX_ARGUMENT_CHARS = 256 * 1024;
  static final int READ_MAX_ENTRIES = 50;
  /**
   * The most characters of one tool result (its JSON text): entries that do not fit are left out, the
   * first entry's content is clipped when it alone does not fit, and a note says what was cut.
   */
  static final int RESULT_MAX_CHARS = 16_000;
  /** What a result keeps free of entries for its wrapper, its other fields and its note. */
  static final int RESULT_RESERVE = 600;
  static final int SEARCH_DEFAULT_LIMIT = 8;
  static final int SEARCH_MAX_LIMIT = 25;
  static final int MAX_TOPIC_CHARS = 64;
  static final int MAX_READ_TOPICS = 20;
  static final int MAX_CONTENT_CHARS = 8192;
  static final int MAX_QUERY_CHARS = 2000;
  /** The longest user message used as a recall query as it is; longer ones are clipped to it (the engine's limit). */
  static final int MAX_RECALL_CHARS = 8192;
  static final int MAX_REASON_CHARS = 500;
  /** The most characters of a name the caller gave (a tool, an argument) that an error echoes. */
  static final int MAX_ECHO_CHARS = 64;

  private static final Logger LOG = LoggerFactory.getLogger(Tools.class);
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  static {
    JSON.getFactory().setStreamReadConstraints(
        StreamReadConstraints.builder().maxNestingDepth(32).maxNumberLength(100).maxStringLength(MAX_ARGUMENT_CHARS)
            .build());
  }

  private record Tool(ToolSpec spec, ArgumentSchema schema, boolean writes) {}

  private static final String REF = "The entry's ref, exactly as returned.";

  private final MemoryResource resource;
  private final Map<String, Tool> tools;
  private final List<ToolSpec> visible;

  Tools(MemoryResource resource) {
    this.resource = resource;
    Map<String, Tool> all = new LinkedHashMap<>();
    add(all, READ, false, ToolHints.reads("Read memory topics"), """
        Read the entries remembered under one topic, or under several topics in one call (each entry once, \
        newest first). Use the topic names from the memory overview. Pass "topic" for one topic or "topics" \
        for several, not both. Each entry has a "ref" to use with memory_correct or memory_forget.""",
        object(properties(
            "topic", string("One topic name, e.g. \"preferences\".", 1, MAX_TOPIC_CHARS),
            "topics", array("Several topic names, read in one call.",
                string("A topic name.", 1, MAX_TOPIC_CHARS), 1, MAX_READ_TOPICS))));
    add(all, SEARCH, false, ToolHints.reads("Search memory"), """
        Search memory for entries relevant to a question or phrase (full text, and meaning where \
        available). Returns the best matches first, each with a "ref".""",
        object(properties(
            "query", string("What to look for, in plain words.", 1, MAX_QUERY_CHARS),
            "limit", integer("The most results (default " + SEARCH_DEFAULT_LIMIT + ").", 1, SEARCH_MAX_LIMIT)),
            "query"));
    // a repeated write finds the content remembered and stores nothing more
    add(all, WRITE, true, ToolHints.writes("Remember", false, true), """
        Remember something durable about the user or the work: a fact, preference, decision, constraint or \
        event, as one short self-contained statement. Give the content only; memory files it under the \
        right topics itself. Content that is already remembered is not stored twice.""",
        object(properties("content", string("The statement to remember.", 1, MAX_CONTENT_CHARS)), "content"));
    // the old version is superseded; a repeated call holds an outdated ref and is refused
    add(all, CORRECT, true, ToolHints.writes("Correct a memory", true, true), """
        Replace a remembered entry that is wrong or out of date with corrected content. The old version is \
        kept in history. Use the "ref" from memory_read or memory_search.""",
        object(properties(
            "ref", string("The entry's ref, exactly as returned.", 1, EntryRef.MAX_LENGTH),
            "content", string("The corrected statement.", 1, MAX_CONTENT_CHARS)),
            "ref", "content"));
    add(all, FORGET, true, ToolHints.writes("Forget a memory", true, true), """
        Stop using a remembered entry that is no longer true or was a mistake. It is retired (kept in \
        history, no longer read or searched), not erased. Use the "ref" from memory_read or memory_search.""",
        object(properties(
            "ref", string("The entry's ref, exactly as returned.", 1, EntryRef.MAX_LENGTH),
            "reason", string("Why it no longer holds.", 1, MAX_REASON_CHARS)),
            "ref", "reason"));
    add(all, BOOT, false, ToolHints.reads("Load the boot memory"), """
        Load the startup memory, once at the start of a session: the fixed boot nodes that exist \
        (core://agent: working rules for every runtime; core://soul: style and persona; preferences://user: \
        stable user context; core://agent/<client>: rules for this runtime only) with their content, and \
        the five most recently written memories by path, priority and disclosure, without content. Pass \
        "client" to name the runtime you run in; without it, the runtime this memory was opened for.""",
        object(properties("client", string("The runtime you run in: a runtime id (lowercase letters, "
            + "digits, '-') such as " + String.join(", ", AgentRuntime.KNOWN.stream().map(AgentRuntime::id).toList())
            + " (mcp: a generic MCP client).", 1, 32))));
    // every report is a record of its own
    add(all, OUTCOME, true, ToolHints.writes("Report a task outcome", false, false), OutcomeTool.DESCRIPTION,
        OutcomeTool.schema());
    add(all, GET, false, ToolHints.reads("Open a memory by path"), PathTools.GET_DESCRIPTION, PathTools.getSchema());
    add(all, BROWSE, false, ToolHints.reads("Browse memory paths"), PathTools.BROWSE_DESCRIPTION,
        PathTools.browseSchema());
    add(all, DOMAINS, false, ToolHints.reads("List memory domains"), PathTools.DOMAINS_DESCRIPTION,
        PathTools.domainsSchema());
    // it replaces the entry at the path; the same call again finds it saying this already
    add(all, WRITE_PATH, true, ToolHints.writes("Write a memory at a path", true, true), PathTools.WRITE_PATH_DESCRIPTION,
        PathTools.writePathSchema());
    add(all, UPDATE, true, ToolHints.writes("Change a memory's priority or disclosure", true, true), """
        Change an entry's priority or disclosure without changing its content (memory_correct changes the \
        content). The old version is kept in history. Use the "ref" from memory_get, memory_read or \
        memory_search; pass "priority", "disclosure" or both.""",
        object(properties(
            "ref", string(REF, 1, EntryRef.MAX_LENGTH),
            "priority", PathTools.priority(),
            "disclosure", PathTools.disclosure()),
            "ref"));
    add(all, GLOSSARY_ADD, true, ToolHints.writes("Add glossary terms", false, true), """
        Add glossary terms to an entry: the names, abbreviations and variants people type when they mean it, \
        so that search finds it by them. Terms it already has (in any case) are skipped.""",
        object(properties(
            "ref", string(REF, 1, EntryRef.MAX_LENGTH),
            "terms", PathTools.terms("The terms to add.")),
            "ref", "terms"));
    add(all, GLOSSARY_REMOVE, true, ToolHints.writes("Remove glossary terms", true, true), """
        Remove glossary terms from an entry (compared in any case); terms it does not have change nothing.""",
        object(properties(
            "ref", string(REF, 1, EntryRef.MAX_LENGTH),
            "terms", PathTools.terms("The terms to remove.")),
            "ref", "terms"));
    add(all, MOVE, true, ToolHints.writes("Move a memory to another path", true, true), """
        Move an entry to another path, or give an entry without a path its first one. Entries below its old \
        path (project://billing/invoices below project://billing) move with it, in one step. Refused as a \
        whole when another entry holds a new path, when the new path's parent holds no entry (move under an \
        existing node, or to a top-level path), and for the boot nodes, which keep their addresses. The old \
        versions stay in history.""",
        object(properties(
            "ref", string(REF, 1, EntryRef.MAX_LENGTH),
            "new_path", PathTools.path("Where the entry goes, e.g. " + EntryPaths.EXAMPLE + ".")),
            "ref", "new_path"));
    // every capture is a record of its own
    add(all, CAPTURE, true, ToolHints.writes("Capture a record", false, false), CaptureTool.DESCRIPTION,
        CaptureTool.schema());
    this.tools = Map.copyOf(all);
    List<ToolSpec> specs = new ArrayList<>();
    for (Tool t : all.values()) {
      if (!t.writes || resource.mode == MemoryMode.READ_WRITE) {
        specs.add(t.spec);
      }
    }
    this.visible = List.copyOf(specs);
  }

  private static void add(Map<String, Tool> all, String name, boolean writes, ToolHints hints, String description,
      ObjectNode schema) {
    ArgumentSchema s = ArgumentSchema.of(schema);
    all.put(name, new Tool(new ToolSpec(name, description, schema.toString(), hints), s, writes));
  }

  List<ToolSpec> specs() {
    return visible;
  }

  // ---- dispatch

  ToolResult call(Grants grants, @Nullable AgentRuntime client, String name, String jsonArgs) {
    Tool tool = tools.get(name);
    if (tool == null || (tool.writes && resource.mode != MemoryMode.READ_WRITE)) {
      if (tool != null) {
        return error("read_only", name + " is not available: memory is read-only here");
      }
      return error("unknown_tool", "unknown tool '" + clip(name, MAX_ECHO_CHARS) + "'; available: " + names());
    }
    if (jsonArgs.length() > MAX_ARGUMENT_CHARS) {
      return error("invalid_arguments", "the arguments are " + jsonArgs.length() + " characters; the limit is "
          + MAX_ARGUMENT_CHARS);
    }
    if (jsonArgs.isBlank()) {
      return error("invalid_arguments", "the arguments are empty; expected a JSON object, schema: " + tool.spec.inputSchema());
    }
    JsonNode args;
    try {
      args = JSON.readTree(jsonArgs);
    } catch (JsonProcessingException e) {
      return error("invalid_arguments", "the arguments are not valid JSON (" + clip(e.getOriginalMessage(), 160) + ")");
    }
    String problem = tool.schema.validate(args);
    if (problem == null) {
      problem = problem(name, args);
    }
    if (problem != null) {
      return error("invalid_arguments", name + ": " + problem);
    }
    try {
      return switch (name) {
        case READ -> read(grants, args);
        case SEARCH -> search(grants, args);
        case WRITE -> write(grants, actor(client), args);
        case CORRECT -> correct(grants, actor(client), args);
        case FORGET -> forget(grants, actor(client), args);
        case BOOT -> boot(grants, args.has("client") ? AgentRuntime.of(args.get("client").textValue())
            : client != null ? client : AgentRuntime.MCP);
        case OUTCOME -> ok(OutcomeTool.run(resource, grants, actor(client), args), List.of());
        case GET -> PathTools.get(resource, grants, args);
        case BROWSE -> PathTools.browse(resource, grants, args);
        case DOMAINS -> PathTools.domains(resource, grants);
        case WRITE_PATH -> PathTools.writePath(resource, grants, actor(client), args);
        case UPDATE -> update(grants, actor(client), args);
        case GLOSSARY_ADD -> glossary(grants, actor(client), args, true);
        case GLOSSARY_REMOVE -> glossary(grants, actor(client), args, false);
        case MOVE -> move(grants, actor(client), args);
        case CAPTURE -> ok(CaptureTool.run(resource, grants, actor(client), args), List.of());
        default -> throw new IllegalStateException(name);
      };
    } catch (RefException e) {
      return error("not_found", e.getMessage());
    } catch (BootNodeException e) {
      return error("boot_node", clip(e.node(), EntryPaths.MAX_CHARS) + " is a boot node: it keeps its address and is "
          + "never moved or forgotten, and no entry moves onto a boot node's address; its content can be corrected, "
          + "or written again with memory_write_path. Nothing was changed");
    } catch (PathConflictException e) {
      return error("conflict", "another entry already holds the path " + clip(e.path(), EntryPaths.MAX_CHARS)
          + "; move or forget that entry first, or choose another path. Nothing was changed");
    } catch (ParentNotFoundException e) {
      // the exception's message names the namespace; the model gets the paths only
      return error("parent_missing", "nothing is remembered at " + clip(e.parent(), EntryPaths.MAX_CHARS)
          + ", the parent of " + clip(e.path(), EntryPaths.MAX_CHARS) + ": write the parent first with"
          + " memory_write_path (a top-level path such as project://checkout_api needs none). Nothing was changed");
    } catch (MemoryException e) {
      return fromException(name, e);
    } catch (RuntimeException e) {
      LOG.warn("memory tool {} failed: {}", name, e.getClass().getName());
      return error("internal", name + " failed inside memory; nothing was changed. Try again later.");
    }
  }

  /** The checks of a call that its schema cannot express; null when the arguments hold. */
  private static @Nullable String problem(String name, JsonNode args) {
    return switch (name) {
      case READ -> args.has("topic") == args.has("topics")
          ? "pass either 'topic' or 'topics', not " + (args.has("topic") ? "both" : "neither") : null;
      case UPDATE -> args.has("priority") || args.has("disclosure") ? null
          : "pass 'priority', 'disclosure' or both: the change to make";
      case MOVE -> EntryPaths.problem("new_path", args.get("new_path").textValue());
      default -> PathTools.problem(name, args);
    };
  }

  private String names() {
    return String.join(", ", visible.stream().map(ToolSpec::name).toList());
  }

  private ToolResult read(Grants grants, JsonNode args) {
    List<String> topics = new ArrayList<>();
    if (args.has("topic")) {
      topics.add(args.get("topic").textValue());
    } else {
      args.get("topics").forEach(t -> topics.add(t.textValue()));
    }
    List<MemoryEntry> entries = resource.engram.read(grants, topics, ReadOptions.limit(READ_MAX_ENTRIES + 1));
    ObjectNode out = F.objectNode();
    List<ObjectNode> nodes = new ArrayList<>();
    for (MemoryEntry e : entries.subList(0, Math.min(entries.size(), READ_MAX_ENTRIES))) {
      nodes.add(entry(e));
    }
    Fit fit = fit(out.putArray("entries"), nodes, RESULT_MAX_CHARS - RESULT_RESERVE);
    List<String> notes = new ArrayList<>();
    if (entries.isEmpty()) {
      notes.add("nothing is remembered under " + (topics.size() == 1 ? "this topic" : "these topics")
          + "; memory_search may find related entries");
    } else if (fit.shown() < entries.size()) {
      notes.add("only the first " + fit.shown() + (fit.shown() == 1 ? " entry is" : " entries are") + " shown (a "
          + "result holds at most " + READ_MAX_ENTRIES + " entries and " + RESULT_MAX_CHARS + " characters); more "
          + "entries exist: read fewer topics at a time or use memory_search");
    }
    fit.note(notes);
    return ok(out, notes);
  }

  private ToolResult search(Grants grants, JsonNode args) {
    int limit = args.has("limit") ? args.get("limit").intValue() : SEARCH_DEFAULT_LIMIT;
    SearchResult result = resource.engram.search(grants,
        SearchRequest.builder(args.get("query").textValue()).limit(limit).build());
    ObjectNode out = F.objectNode();
    List<ObjectNode> nodes = new ArrayList<>();
    for (SearchHit h : result.hits()) {
      nodes.add(entry(h.entry()));
    }
    Fit fit = fit(out.putArray("results"), nodes, RESULT_MAX_CHARS - RESULT_RESERVE);
    List<String> notes = new ArrayList<>();
    if (result.fallbackReason() != null) {
      LOG.info("memory_search ran full text only: {}", result.fallbackReason());
      notes.add("meaning-based search was unavailable; these are full-text matches only");
    }
    if (result.hits().isEmpty()) {
      notes.add("nothing matched; try other words");
    } else if (fit.shown() < nodes.size()) {
      notes.add((nodes.size() - fit.shown()) + " more " + (nodes.size() - fit.shown() == 1 ? "match was" : "matches were")
          + " left out (a result holds at most " + RESULT_MAX_CHARS + " characters); ask for a smaller limit or "
          + "narrower words, or read a topic with memory_read");
    }
    fit.note(notes);
    return ok(out, notes);
  }

  /** The actor history records: the configured source, with the runtime when trusted code named it. */
  private String actor(@Nullable AgentRuntime client) {
    return client == null ? resource.source : resource.source + ":" + client.id();
  }

  private ToolResult write(Grants grants, String actor, JsonNode args) {
    WriteOptions.Builder options = WriteOptions.builder().source(actor).origin(resource.origin);
    if (resource.writePolicy != null) {
      options.writePolicy(resource.writePolicy);
    }
    WriteResult r = resource.engram.write(grants, args.get("content").textValue(), options.build());
    ObjectNode out = F.objectNode();
    out.put("outcome", switch (r.outcome()) {
      case APPENDED -> "remembered";
      case DEDUPED -> "already remembered";
      case UPDATED -> "updated";
    });
    return ok(out, withEntry(out, r.entry()));
  }

  private ToolResult correct(Grants grants, String actor, JsonNode args) {
    MemoryEntry cur = current(grants, args.get("ref").textValue());
    MemoryEntry next = resource.engram.correct(grants, cur.entryId(), args.get("content").textValue(),
        ChangeOptions.builder().reason("corrected through " + CORRECT).source(actor).origin(resource.origin).build());
    ObjectNode out = F.objectNode();
    out.put("outcome", next.versionId().equals(cur.versionId()) ? "unchanged (same content)" : "corrected");
    return ok(out, withEntry(out, next));
  }

  private ToolResult forget(Grants grants, String actor, JsonNode args) {
    MemoryEntry cur = current(grants, args.get("ref").textValue());
    resource.engram.retire(grants, cur.citation(),
        ChangeOptions.builder().reason(args.get("reason").textValue()).source(actor).origin(resource.origin).build());
    ObjectNode out = F.objectNode();
    out.put("outcome", "forgotten (retired; kept in history)");
    out.put("ref", args.get("ref").textValue());
    return ok(out, List.of());
  }

  private ToolResult update(Grants grants, String actor, JsonNode args) {
    MemoryEntry cur = current(grants, args.get("ref").textValue());
    EntryPatch.Builder patch = EntryPatch.builder();
    if (args.has("priority")) {
      patch.priority(args.get("priority").intValue());
    }
    if (args.has("disclosure")) {
      patch.disclosure(args.get("disclosure").textValue());
    }
    WriteResult r = resource.engram.update(grants, cur.entryId(), patch.build(), change(actor, UPDATE));
    ObjectNode out = F.objectNode();
    out.put("outcome", r.outcome() == WriteResult.Outcome.DEDUPED ? "unchanged (it already has these values)" : "updated");
    List<String> notes = withEntry(out, PathTools.detailed(r.entry()));
    warnings(r.warnings(), notes);
    return ok(out, notes);
  }

  private ToolResult glossary(Grants grants, String actor, JsonNode args, boolean add) {
    MemoryEntry cur = current(grants, args.get("ref").textValue());
    List<String> terms = texts(args.get("terms"));
    MemoryEntry next = add ? resource.engram.glossaryAdd(grants, cur.entryId(), terms, change(actor, GLOSSARY_ADD))
        : resource.engram.glossaryRemove(grants, cur.entryId(), terms, change(actor, GLOSSARY_REMOVE));
    ObjectNode out = F.objectNode();
    boolean changed = !next.versionId().equals(cur.versionId());
    out.put("outcome", add ? (changed ? "added" : "unchanged (it already has these terms)")
        : (changed ? "removed" : "unchanged (it has none of these terms)"));
    return ok(out, withEntry(out, PathTools.detailed(next)));
  }

  private ToolResult move(Grants grants, String actor, JsonNode args) {
    MemoryEntry cur = current(grants, args.get("ref").textValue());
    String to = args.get("new_path").textValue();
    MemoryEntry next = resource.engram.move(grants, cur.entryId(), to,
        ChangeOptions.builder().source(actor).origin(resource.origin).build());
    ObjectNode out = F.objectNode();
    boolean moved = !next.versionId().equals(cur.versionId());
    out.put("outcome", moved ? "moved" : "unchanged (it is at this path already)");
    List<String> notes = withEntry(out, PathTools.detailed(next));
    if (moved) {
      int below = 0;
      for (MemoryEntry e : resource.engram.list(grants, ListOptions.builder().scope(next.scope()).build())) {
        if (e.createdInRevision() == next.createdInRevision() && e.path() != null && e.path().startsWith(to + "/")
            && !e.entryId().equals(next.entryId())) {
          below++;
        }
      }
      if (below > 0) {
        notes.add(below + (below == 1 ? " entry below its old path moved" : " entries below its old path moved")
            + " with it, to the same place below " + clip(to, EntryPaths.MAX_CHARS));
      }
    }
    return ok(out, notes);
  }

  private ChangeOptions change(String actor, String tool) {
    return ChangeOptions.builder().reason("changed through " + tool).source(actor).origin(resource.origin).build();
  }

  private ToolResult boot(Grants grants, AgentRuntime client) {
    BootBlock block = resource.engram.boot(grants, client.id());
    ObjectNode out = F.objectNode();
    out.put("client", client.id());
    ArrayNode nodeList = out.putArray("nodes");
    ArrayNode recent = F.arrayNode();
    for (RecentMemory r : block.recent()) {
      recent.add(recent(r));
    }
    List<ObjectNode> nodes = new ArrayList<>();
    for (MemoryEntry e : block.nodes()) {
      ObjectNode n = entry(e);
      n.put("path", e.path());
      nodes.add(n);
    }
    Fit fit = fit(nodeList, nodes, RESULT_MAX_CHARS - RESULT_RESERVE - recent.toString().length());
    out.set("recent", recent);
    List<String> notes = new ArrayList<>();
    if (block.nodes().isEmpty()) {
      notes.add("no boot node is written yet");
    } else if (fit.shown() < nodes.size()) {
      notes.add((nodes.size() - fit.shown()) + " more boot " + (nodes.size() - fit.shown() == 1 ? "node was" : "nodes were")
          + " left out (a result holds at most " + RESULT_MAX_CHARS + " characters)");
    }
    fit.note(notes);
    return ok(out, notes);
  }

  static ObjectNode recent(RecentMemory r) {
    ObjectNode o = F.objectNode();
    if (r.path() != null) {
      o.put("path", r.path());
    }
    o.put("priority", r.priority());
    if (r.disclosure() != null) {
      o.put("disclosure", r.disclosure());
    }
    o.put("when", r.writtenAt().truncatedTo(ChronoUnit.SECONDS).toString());
    return o;
  }

  /** The active version a ref names, writable for these grants under both policies. */
  private MemoryEntry current(Grants grants, String ref) {
    EntryRef decoded = EntryRef.decode(ref);
    if (decoded == null) {
      throw new RefException("'" + clip(ref, 40) + "' is not a memory ref; copy the ref from a memory_read or "
          + "memory_search result");
    }
    MemoryEntry cur;
    try {
      cur = resource.engram.get(grants, decoded.entryId());
    } catch (NotFoundException e) {
      throw new RefException("no remembered entry has this ref; read or search again for the current ref");
    }
    if (cur.status() != EntryStatus.ACTIVE) {
      throw new RefException("this entry was already " + (cur.status() == EntryStatus.RETIRED ? "forgotten" : "replaced")
          + "; read or search again for the current ref");
    }
    if (cur.version() != decoded.version()) {
      throw new StaleRefException();
    }
    if (resource.writePolicy != null && !writable(grants, resource.writePolicy, cur.scope())) {
      throw new MemoryException(dev.engram.ErrorCode.SCOPE_VIOLATION, "read-only");
    }
    return cur;
  }

  static boolean writable(Grants grants, WritePolicy policy, String target) {
    for (String g : grants.namespaces()) {
      if (target.equals(g)) {
        return true;
      }
      if (policy.allowDescendants() && Namespaces.isSelfOrAncestor(g, target)) {
        return true;
      }
      switch (policy.ancestorPromotion()) {
        case PARENT -> {
          int i = g.lastIndexOf('/');
          if (i > 0 && target.equals(g.substring(0, i))) {
            return true;
          }
        }
        case ANCESTORS -> {
          if (Namespaces.isSelfOrAncestor(target, g)) {
            return true;
          }
        }
        case NONE -> { }
      }
    }
    return false;
  }

  private static ToolResult fromException(String tool, MemoryException e) {
    if (e instanceof StaleRefException) {
      return error("conflict", "this entry changed since that ref was returned; read or search again and use the "
          + "current ref");
    }
    switch (e.code()) {
      case INVALID_INPUT:
        if (e instanceof InvalidInputException) {
          return error("invalid_arguments", tool + ": " + clip(e.getMessage(), 300));
        }
        return error("invalid_arguments", tool + ": the arguments were refused");
      case NOT_FOUND:
        return error("not_found", "no remembered entry has this ref; read or search again for the current ref");
      case SCOPE_VIOLATION:
      case INVALID_GRANT:
        return error("read_only", "this memory cannot be changed from here");
      case REVISION_CONFLICT:
        return error("conflict", "memory changed while this call ran; read again and retry");
      case ENTRY_STATE:
        return error("conflict", "this entry is no longer active; read or search again");
      case PRIORITY_CAP_EXCEEDED:
        return error("cap_exceeded", "memory is full for entries of this importance; correct or forget one first");
      case REASONER_FAILED:
      case INVALID_MODEL_OUTPUT:
        LOG.warn("{}: the reasoner could not file the content ({})", tool, e.code());
        return error("not_filed", "memory could not file this content; nothing was stored. Rephrase it as one "
            + "short statement, or try again later");
      case CAPABILITY_NOT_SUPPORTED:
        return error("unavailable", tool + " is not supported by this memory");
      default:
        LOG.warn("{} failed in the store: {}", tool, e.code());
        return error("unavailable", "memory is unavailable right now; nothing was changed. Try again later");
    }
  }

  // ---- rendering

  static ObjectNode entry(MemoryEntry e) {
    ObjectNode o = F.objectNode();
    o.put("ref", new EntryRef(e.entryId(), e.version()).encode());
    o.put("content", e.content());
    o.put("type", e.type().wireName());
    ArrayNode topics = o.putArray("topics");
    e.topics().forEach(topics::add);
    o.put("when", e.updatedAt().truncatedTo(ChronoUnit.SECONDS).toString());
    return o;
  }

  static String ref(MemoryEntry e) {
    return new EntryRef(e.entryId(), e.version()).encode();
  }

  /** Sets {@code out}'s {@code entry} to the entry, its content clipped if needed; returns the notes. */
  private static List<String> withEntry(ObjectNode out, MemoryEntry e) {
    return withEntry(out, entry(e));
  }

  /** Sets {@code out}'s {@code entry} to the rendered entry, its content clipped if needed; returns the notes. */
  static List<String> withEntry(ObjectNode out, ObjectNode entry) {
    ArrayNode one = F.arrayNode();
    Fit fit = fit(one, List.of(entry), RESULT_MAX_CHARS - RESULT_RESERVE);
    out.set("entry", one.get(0));
    List<String> notes = new ArrayList<>();
    fit.note(notes);
    return notes;
  }

  /** Adds a write's warnings (a missing or vague disclosure) to the notes, each clipped. */
  static void warnings(List<String> warnings, List<String> notes) {
    for (String w : warnings) {
      notes.add(clip(w, 300));
    }
  }

  /** The strings of a validated array of strings. */
  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(t -> out.add(t.textValue()));
    return out;
  }

  static ToolResult ok(ObjectNode out, List<String> notes) {
    if (!notes.isEmpty()) {
      out.put("note", String.join("; ", notes));
    }
    return ToolResult.ok(out.toString());
  }

  /**
   * What {@link #fit} kept.
   *
   * @param shown how many nodes were added
   * @param clipped whether the first node's content was clipped
   */
  record Fit(int shown, boolean clipped) {
    void note(List<String> notes) {
      if (clipped) {
        notes.add("the content of the first entry is clipped (marked \"clipped\"; a result holds at most "
            + RESULT_MAX_CHARS + " characters)");
      }
    }
  }

  /**
   * Adds {@code nodes} to {@code list} in order while their JSON text stays within {@code room}
   * characters. A first node that does not fit alone is added with its content clipped to fit (and
   * {@code "clipped": true}); any later node that does not fit ends the list.
   */
  static Fit fit(ArrayNode list, List<ObjectNode> nodes, int room) {
    int used = 0;
    for (ObjectNode n : nodes) {
      int len = n.toString().length() + 1;
      if (used + len <= room) {
        list.add(n);
        used += len;
      } else if (list.isEmpty()) {
        list.add(clipped(n, room));
        return new Fit(1, true);
      } else {
        break;
      }
    }
    return new Fit(list.size(), false);
  }

  /** {@code node} with the longest prefix of its content (whole code points, marked with …) whose JSON fits. */
  private static ObjectNode clipped(ObjectNode node, int room) {
    String content = node.path("content").asText();
    ObjectNode out = node.deepCopy();
    out.put("clipped", true);
    int lo = 0;
    int hi = content.length();
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      out.put("content", prefix(content, mid));
      if (out.toString().length() < room) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    out.put("content", prefix(content, lo));
    return out;
  }

  private static String prefix(String s, int end) {
    int cut = end > 0 && end < s.length() && Character.isHighSurrogate(s.charAt(end - 1)) ? end - 1 : end;
    return s.substring(0, cut) + "…";
  }

  static ToolResult error(String code, String message) {
    ObjectNode o = F.objectNode();
    o.put("error", message);
    o.put("code", code);
    return ToolResult.error(o.toString());
  }

  static String clip(@Nullable String s, int max) {
    if (s == null) {
      return "";
    }
    String one = UntrustedText.inline(s);
    return one.length() <= max ? one : one.substring(0, max) + "…";
  }

  private static final class RefException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RefException(String message) {
      super(message, null, false, false);
    }
  }

  private static final class StaleRefException extends MemoryException {
    private static final long serialVersionUID = 1L;

    StaleRefException() {
      super(dev.engram.ErrorCode.REVISION_CONFLICT, "stale ref");
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static dev.engram.agent.ArgumentSchema.array;
import static dev.engram.agent.ArgumentSchema.integer;
import static dev.engram.agent.ArgumentSchema.object;
import static dev.engram.agent.ArgumentSchema.properties;
import static dev.engram.agent.ArgumentSchema.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.DomainSummary;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.PathNode;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The tools of addressed memory: {@code memory_domains}, {@code memory_browse} and {@code memory_get}
 * read entries by path, {@code memory_write_path} writes one at its path. A path is an address inside
 * the memory the grants give ({@link EntryPaths}); no tool names a namespace. A path write goes to the
 * first granted namespace that holds an entry at the path, else to the first grant, and never anywhere
 * else: an entry an enclosing (shared) memory holds at the same path is read here, not changed.
 */
final class PathTools {
  static final String GET = "memory_get";
  static final String BROWSE = "memory_browse";
  static final String DOMAINS = "memory_domains";
  static final String WRITE_PATH = "memory_write_path";
  static final int MAX_PRIORITY = 99;
  static final int MAX_DISCLOSURE_CHARS = 512;
  static final int MAX_GLOSSARY_TERMS = 32;
  static final int MAX_TERM_CHARS = 128;

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private PathTools() {}

  // ---- schemas

  static ObjectNode path(String description) {
    return string(description, 1, EntryPaths.MAX_CHARS);
  }

  static ObjectNode priority() {
    return integer("Importance: 0 core identity, 1 key fact, 2 or more general (0 and 1 are capped per memory).", 0,
        MAX_PRIORITY);
  }

  static ObjectNode disclosure() {
    return string("The one future situation in which this entry should surface, e.g. \"When changing the refund "
        + "webhooks\".", 1, MAX_DISCLOSURE_CHARS);
  }

  static ObjectNode terms(String description) {
    return array(description, string("One term, on one line.", 1, MAX_TERM_CHARS), 1, MAX_GLOSSARY_TERMS);
  }

  static final String GET_DESCRIPTION = """
      Open the entry remembered at a path (an address such as project://checkout_api/webhooks): its content, \
      priority, disclosure and glossary. Paths come from memory_browse, memory_boot or memory_write_path. The \
      entry's "ref" is for memory_correct, memory_update, memory_move, memory_forget and the glossary tools.""";

  static ObjectNode getSchema() {
    return object(properties("path", path("The entry's path, e.g. " + EntryPaths.EXAMPLE + ".")), "path");
  }

  static final String BROWSE_DESCRIPTION = """
      List what is remembered directly below a path, without content: the entries one level down, and the \
      deeper paths (ending in "/") with how many entries are below them. Start at a domain root from \
      memory_domains, such as project://, then go deeper; open an entry with memory_get.""";

  static ObjectNode browseSchema() {
    return object(properties("path", path("A domain root such as project://, or a path such as "
        + "project://checkout_api (a trailing / is optional).")), "path");
  }

  static final String DOMAINS_DESCRIPTION = """
      List the domains of addressed memory (the part of a path before ://, such as core, preferences or \
      project) with how many entries each holds. Start here to walk memory with memory_browse.""";

  static ObjectNode domainsSchema() {
    return object(properties());
  }

  static final String WRITE_PATH_DESCRIPTION = """
      Write the entry at a path: creates it, or makes a new version of the entry already there (the old one \
      stays in history). Choose a stable address that names the concept, not the event: \
      domain://segment/segment, lowercase snake_case, e.g. project://checkout_api/webhooks. In core://, \
      preferences:// and project:// a path below the top level needs its parent written first \
      (project://checkout_api before project://checkout_api/webhooks). The boot nodes (core://agent, \
      core://soul, preferences://user, core://agent/<client>) are written here too. priority, \
      disclosure and glossary replace the entry's current values when given and are kept when left out.""";

  static ObjectNode writePathSchema() {
    return object(properties(
        "path", path("Where the entry lives, e.g. " + EntryPaths.EXAMPLE + "."),
        "content", string("The entry's full text: the durable fact, rule or decision.", 1, Tools.MAX_CONTENT_CHARS),
        "priority", priority(),
        "disclosure", disclosure(),
        "glossary", terms("The words people type when they mean this entry: names, abbreviations, variants "
            + "(replaces the current glossary).")),
        "path", "content");
  }

  // ---- running

  /** The tool's argument checks that a schema cannot express; null when the arguments hold. */
  static @Nullable String problem(String tool, JsonNode args) {
    return switch (tool) {
      case GET, WRITE_PATH -> EntryPaths.problem("path", args.get("path").textValue());
      case BROWSE -> EntryPaths.prefixProblem("path", args.get("path").textValue());
      default -> null;
    };
  }

  static ToolResult get(MemoryResource resource, Grants grants, JsonNode args) {
    String path = args.get("path").textValue();
    List<MemoryEntry> at = at(resource, grants, path);
    if (at.isEmpty()) {
      return Tools.error("not_found", "nothing is remembered at " + Tools.clip(path, 80) + "; memory_browse lists "
          + "what exists below a path, memory_domains where to start");
    }
    List<ObjectNode> nodes = new ArrayList<>();
    for (MemoryEntry e : at) {
      ObjectNode n = detailed(e);
      if (!grants.namespaces().contains(e.scope())) {
        n.put("shared", true);
      }
      nodes.add(n);
    }
    ObjectNode out = F.objectNode();
    out.put("path", path);
    Tools.Fit fit = Tools.fit(out.putArray("entries"), nodes, Tools.RESULT_MAX_CHARS - Tools.RESULT_RESERVE);
    List<String> notes = new ArrayList<>();
    if (nodes.size() > 1) {
      notes.add("more than one memory holds this path; an entry marked \"shared\" belongs to an enclosing shared "
          + "memory, and memory_write_path writes the other one");
    } else if (nodes.get(0).has("shared")) {
      notes.add("this entry belongs to an enclosing shared memory; memory_write_path at this path would write an "
          + "entry of your own beside it");
    }
    if (fit.shown() < nodes.size()) {
      notes.add((nodes.size() - fit.shown()) + " more " + (nodes.size() - fit.shown() == 1 ? "entry was" : "entries were")
          + " left out (a result holds at most " + Tools.RESULT_MAX_CHARS + " characters)");
    }
    fit.note(notes);
    return Tools.ok(out, notes);
  }

  static ToolResult browse(MemoryResource resource, Grants grants, JsonNode args) {
    String prefix = EntryPaths.prefix(args.get("path").textValue());
    // one line per path (a sub-path ends in '/'): an entry several visible scopes hold is counted, not repeated
    Map<String, ObjectNode> children = new LinkedHashMap<>();
    for (PathNode n : resource.engram.browse(grants, prefix)) {
      ObjectNode seen = children.get(n.path());
      if (seen != null) {
        seen.put("entries", seen.path("entries").asInt(1) + n.entries());
        continue;
      }
      ObjectNode child = F.objectNode();
      child.put("path", n.path());
      if (n.prefix()) {
        child.put("entries", n.entries());
      }
      children.put(n.path(), child);
    }
    ObjectNode out = F.objectNode();
    out.put("path", prefix);
    List<ObjectNode> nodes = new ArrayList<>(children.values());
    Tools.Fit fit = Tools.fit(out.putArray("children"), nodes, Tools.RESULT_MAX_CHARS - Tools.RESULT_RESERVE);
    List<String> notes = new ArrayList<>();
    if (nodes.isEmpty()) {
      notes.add("nothing is remembered below " + Tools.clip(prefix, 80) + "; memory_domains lists where memory is");
    } else if (fit.shown() < nodes.size()) {
      notes.add((nodes.size() - fit.shown()) + " more " + (nodes.size() - fit.shown() == 1 ? "child was" : "children were")
          + " left out (a result holds at most " + Tools.RESULT_MAX_CHARS + " characters); browse a deeper path");
    }
    return Tools.ok(out, notes);
  }

  static ToolResult domains(MemoryResource resource, Grants grants) {
    List<ObjectNode> nodes = new ArrayList<>();
    for (DomainSummary d : resource.engram.domains(grants)) {
      ObjectNode n = F.objectNode();
      n.put("domain", d.domain());
      n.put("root", d.domain() + "://");
      n.put("entries", d.entries());
      nodes.add(n);
    }
    ObjectNode out = F.objectNode();
    Tools.Fit fit = Tools.fit(out.putArray("domains"), nodes, Tools.RESULT_MAX_CHARS - Tools.RESULT_RESERVE);
    List<String> notes = new ArrayList<>();
    if (nodes.isEmpty()) {
      notes.add("no remembered entry has a path yet");
    } else if (fit.shown() < nodes.size()) {
      notes.add((nodes.size() - fit.shown()) + " more domains were left out (a result holds at most "
          + Tools.RESULT_MAX_CHARS + " characters)");
    }
    return Tools.ok(out, notes);
  }

  static ToolResult writePath(MemoryResource resource, Grants grants, String actor, JsonNode args) {
    String path = args.get("path").textValue();
    // the granted namespace holding the path, else the one holding its parent (a child lives beside its
    // parent), else the first grant
    String target = ownScope(resource, grants, path);
    String parent = parentOf(path);
    if (target == null && parent != null) {
      target = ownScope(resource, grants, parent);
    }
    if (target == null) {
      target = grants.namespaces().get(0);
    }
    WriteOptions.Builder options = WriteOptions.builder().path(path).source(actor).origin(resource.origin)
        .writePolicy(WritePolicy.grantOnly());
    if (args.has("priority")) {
      options.priority(args.get("priority").intValue());
    }
    if (args.has("disclosure")) {
      options.disclosure(args.get("disclosure").textValue());
    }
    if (args.has("glossary")) {
      options.glossary(Tools.texts(args.get("glossary")));
    }
    // one granted namespace, grant-only: the write lands there or fails, whatever the reasoner proposes
    WriteResult r = resource.engram.write(Grants.of(target), args.get("content").textValue(), options.build());
    if (!r.entry().scope().equals(target) || !path.equals(r.entry().path())) {
      throw new IllegalStateException("a path write was filed outside its path");
    }
    ObjectNode out = F.objectNode();
    out.put("outcome", switch (r.outcome()) {
      case APPENDED -> "created";
      case UPDATED -> "updated (a new version; the old one is in history)";
      case DEDUPED -> "unchanged (the entry already says this)";
    });
    List<String> notes = Tools.withEntry(out, detailed(r.entry()));
    Tools.warnings(r.warnings(), notes);
    return Tools.ok(out, notes);
  }

  /** The first granted namespace (in the grants' order) with an active entry at {@code path}, or null. */
  private static @Nullable String ownScope(MemoryResource resource, Grants grants, String path) {
    for (MemoryEntry e : at(resource, grants, path)) {
      if (grants.namespaces().contains(e.scope())) {
        return e.scope();
      }
    }
    return null;
  }

  /** {@code path} without its last segment, or null for a path of one segment. */
  static @Nullable String parentOf(String path) {
    int scheme = path.indexOf("://");
    int last = path.lastIndexOf('/');
    return last > (scheme < 0 ? 0 : scheme + 2) ? path.substring(0, last) : null;
  }

  /**
   * The active entries at {@code path} in the visible scopes: those of the granted namespaces first, in
   * the grants' order, then those of enclosing scopes.
   */
  static List<MemoryEntry> at(MemoryResource resource, Grants grants, String path) {
    List<MemoryEntry> own = new ArrayList<>();
    List<MemoryEntry> shared = new ArrayList<>();
    for (MemoryEntry e : resource.engram.list(grants)) {
      if (path.equals(e.path())) {
        (grants.namespaces().contains(e.scope()) ? own : shared).add(e);
      }
    }
    own.sort(Comparator.comparingInt(e -> grants.namespaces().indexOf(e.scope())));
    own.addAll(shared);
    return own;
  }

  /** An entry with its address fields: path, priority, disclosure and glossary when it has them. */
  static ObjectNode detailed(MemoryEntry e) {
    ObjectNode o = Tools.entry(e);
    if (e.path() != null) {
      o.put("path", e.path());
    }
    o.put("priority", e.priority());
    if (e.disclosure() != null) {
      o.put("disclosure", e.disclosure());
    }
    if (!e.glossary().isEmpty()) {
      ArrayNode g = o.putArray("glossary");
      e.glossary().forEach(g::add);
    }
    return o;
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CapturedSource;
import dev.engram.SourceRecord;
import dev.engram.Grants;
import dev.engram.MemoryException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The memory one agent has for one request or run: the {@code memory_*} tools and the instructions
 * block, all confined to the grants it was {@linkplain MemoryResource#bind(Grants) bound} to. No tool
 * takes a namespace; nothing outside the grants is ever returned, changed or mentioned. Immutable and
 * thread-safe.
 */
public final class AgentMemory {
  private final MemoryResource resource;
  private final Grants grants;
  private final @Nullable AgentRuntime client;

  AgentMemory(MemoryResource resource, Grants grants, @Nullable AgentRuntime client) {
    this.resource = resource;
    this.grants = grants;
    this.client = client;
  }

  /**
   * The tools the model may call: {@code memory_read}, {@code memory_search}, {@code memory_boot},
   * {@code memory_get}, {@code memory_browse} and {@code memory_domains}, plus {@code memory_write},
   * {@code memory_correct}, {@code memory_forget}, {@code memory_record_outcome},
   * {@code memory_write_path}, {@code memory_update}, {@code memory_glossary_add},
   * {@code memory_glossary_remove}, {@code memory_move} and {@code memory_capture} in read-write mode.
   *
   * @return the specs, in a stable order
   */
  public List<ToolSpec> tools() {
    return resource.tools.specs();
  }

  /**
   * Runs one tool call. The arguments are validated against the tool's schema before anything runs;
   * every failure (bad JSON, unknown tool, schema violation, not found, conflict, cap, reasoner or
   * store failure) is a result with {@link ToolResult#isError()} and a short message for the model.
   *
   * @param name the tool name the model called
   * @param jsonArgs the arguments as the model gave them (a JSON object)
   * @return compact JSON for the model
   * @throws NullPointerException if {@code name} or {@code jsonArgs} is null
   */
  public ToolResult call(String name, String jsonArgs) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(jsonArgs, "jsonArgs");
    return resource.tools.call(grants, client, name, jsonArgs);
  }

  /**
   * One deterministic, bounded block for the model's context: the topic overview (with autoScan), the
   * preloaded entries (with preload), then a prepared context for {@code message}, all labelled as
   * untrusted remembered data, with citations and refs. Remembered text cannot end a section or forge a
   * line of the block.
   *
   * @param message what the user just said (blank: no prepared context)
   * @return the block
   * @throws MemoryException if the store fails
   * @throws NullPointerException if {@code message} is null
   */
  public String instructions(String message) {
    Objects.requireNonNull(message, "message");
    return new Instructions(resource, grants).render(message);
  }

  /**
   * A user's message as the query that recalls memory for it, the way {@link #instructions(String)}
   * uses it: control characters and unpaired surrogates become spaces, and a message longer than a
   * search query may be is clipped (on a code point boundary) to its first 8,192 characters (the longest query search takes), so a long
   * message still recalls memory instead of failing. Adapters that search or prepare a context for a
   * message use it too.
   *
   * @param message the user's message, any length
   * @return the query, stripped; empty when nothing is left to search for
   * @throws NullPointerException if {@code message} is null
   */
  public static String recallQuery(String message) {
    return Instructions.queryOf(Objects.requireNonNull(message, "message"));
  }

  /**
   * The boot block as one deterministic text block for the start of a session: the existing boot
   * nodes of the runtime this memory was bound to (or {@code runtime} when given; the generic
   * {@link AgentRuntime#MCP} when neither is known) with their content and refs, then the five most
   * recently written memories by path, priority and disclosure, without content. Remembered text is
   * rendered one line per item inside a fenced section labelled as remembered data.
   *
   * @param runtime the runtime, or null for the one this memory was bound to
   * @return the block
   * @throws MemoryException if the store fails
   */
  public String boot(@Nullable AgentRuntime runtime) {
    AgentRuntime chosen = runtime != null ? runtime : client != null ? client : AgentRuntime.MCP;
    return Instructions.boot(resource.engram.boot(grants, chosen.id()));
  }

  /**
   * Captures what happened (e.g. the user's turn) as a source under the bound grants, for a later
   * {@link dev.engram.Engram#flush} to turn into memories. Trusted code calls this, never the model.
   *
   * @param record the record; without a scope it goes to the first grant
   * @return the stored record
   * @throws dev.engram.InvalidInputException naming the field when the record is malformed
   * @throws dev.engram.CapabilityNotSupportedException when the store does not keep sources
   */
  public CapturedSource capture(SourceRecord record) {
    return resource.engram.capture(grants, Objects.requireNonNull(record, "record"));
  }

  /**
   * The runtime this memory was bound to, when trusted code named one.
   *
   * @return the runtime, or null
   */
  public @Nullable AgentRuntime runtime() {
    return client;
  }

  /**
   * The visible topic summaries as compact JSON ({@code {"profile": ..., "topics": [{"topic", "entries",
   * "blurb", "uncurated"}]}}), merged across the visible scopes, {@code core} first; bounded.
   *
   * @return compact JSON
   * @throws MemoryException if the store fails
   */
  public String scan() {
    Instructions.Overview o = new Instructions(resource, grants).overview();
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode out = f.objectNode();
    if (o.profile() != null) {
      out.put("profile", o.profile());
    }
    ArrayNode topics = out.putArray("topics");
    for (Instructions.Topic t : o.shown()) {
      ObjectNode n = topics.addObject();
      n.put("topic", t.topic());
      n.put("entries", t.count());
      if (t.blurb() != null) {
        n.put("blurb", t.blurb());
      }
      if (t.uncurated()) {
        n.put("uncurated", true);
      }
    }
    if (o.hidden() > 0) {
      out.put("note", o.hidden() + " more topics not shown");
    }
    return out.toString();
  }

  /**
   * The grants this memory is bound to (for the trusted code that bound it).
   *
   * @return the grants
   */
  public Grants grants() {
    return grants;
  }
}

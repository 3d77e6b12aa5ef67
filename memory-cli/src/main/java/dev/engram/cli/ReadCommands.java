/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ContextRequest;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.PreparedContext;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that only read. */
final class ReadCommands {
  private ReadCommands() {}

  static ArrayNode entries(List<MemoryEntry> entries) {
    ArrayNode a = Json.MAPPER.createArrayNode();
    entries.forEach(e -> a.add(Json.entryNode(e)));
    return a;
  }

  static void entryTable(PrintWriter out, List<MemoryEntry> entries) {
    Table t = Table.of("ENTRY", "V", "STATUS", "SCOPE", "TOPICS:30", "UPDATED", "CONTENT:60");
    for (MemoryEntry e : entries) {
      t.row(e.entryId(), e.version(), e.status().name().toLowerCase(Locale.ROOT), e.scope(),
          String.join(",", e.topics()), e.updatedAt().toString(), e.content());
    }
    t.print(out);
  }

  static void details(PrintWriter out, MemoryEntry e) {
    Table t = Table.of("FIELD", "VALUE:120");
    t.row("entry", e.entryId());
    t.row("version", e.version() + " (" + e.versionId() + ")");
    t.row("status", e.status().name().toLowerCase(Locale.ROOT)
        + (e.supersededBy() == null ? "" : ", superseded by " + e.supersededBy()));
    t.row("scope", e.scope());
    t.row("topics", String.join(", ", e.topics()));
    t.row("type", e.type().wireName());
    t.row("priority", e.priority());
    if (e.path() != null) {
      t.row("path", e.path());
    }
    if (e.disclosure() != null) {
      t.row("disclosure", e.disclosure());
    }
    if (!e.glossary().isEmpty()) {
      t.row("glossary", String.join(", ", e.glossary()));
    }
    if (e.source() != null) {
      t.row("source", e.source());
    }
    if (!e.evidence().isEmpty()) {
      t.row("evidence", String.join(", ", e.evidence()));
    }
    t.row("created", e.createdAt());
    t.row("revision", "this version was made in revision " + e.createdInRevision());
    t.row("updated", e.updatedAt());
    t.row("citation", e.citation().render());
    t.print(out);
    out.println();
    out.println(Table.printableLines(e.content()));
    out.flush();
  }

  @Command(name = "scopes", description = {
      "List scopes with revision and counts: those the grants can see, or with --below NS every scope at and below NS"
          + " (an operator's view; no --grant needed), or without either every scope in the store.",
      "A grant sees its own scope and its ancestors, not the scopes below it: to inspect app/user/u1 under a grant"
          + " of app, list the scopes with --below app and pass the one to look at as --grant."})
  static final class Scopes extends BaseCommand {
    @Option(names = "--below", paramLabel = "NS", description = "every scope at and below NS, whatever the grants")
    @Nullable String below;

    @Override
    boolean needsGrants() {
      return false;
    }

    @Override
    int run(Session s) {
      List<String> scopes;
      List<String> hidden = List.of();
      if (below != null) {
        scopes = s.store().scopesFrom(Grants.of(below).namespaces().get(0));
      } else if (s.hasGrants()) {
        scopes = Overview.visibleScopes(s);
        hidden = Overview.scopesBelow(s);
      } else {
        scopes = s.inspector().allScopes();
      }
      List<Overview.ScopeRow> rows = Overview.rows(s.store(), scopes);
      if (json()) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (Overview.ScopeRow r : rows) {
          ObjectNode n = a.addObject();
          n.put("scope", r.scope());
          n.put("revision", r.revision());
          n.put("active", r.count(EntryStatus.ACTIVE));
          n.put("retired", r.count(EntryStatus.RETIRED));
          n.put("superseded", r.count(EntryStatus.SUPERSEDED));
          n.put("topics", r.topics());
          n.put("dirtyTopics", r.dirtyTopics());
        }
        printJson(a);
        return EngramCli.OK;
      }
      Table t = Table.of("SCOPE", "REVISION", "ACTIVE", "RETIRED", "SUPERSEDED", "TOPICS", "DIRTY");
      for (Overview.ScopeRow r : rows) {
        t.row(r.scope(), r.revision(), r.count(EntryStatus.ACTIVE), r.count(EntryStatus.RETIRED),
            r.count(EntryStatus.SUPERSEDED), r.topics(), r.dirtyTopics());
      }
      if (t.isEmpty()) {
        out().println(below != null ? "no scope at or below " + below
            : s.hasGrants() ? "no memory visible to " + s.grants().namespaces() : "no scopes in " + s.describe());
      } else {
        t.print(out());
      }
      if (!hidden.isEmpty()) {
        String first = s.grants().namespaces().get(0);
        out().println(hidden.size() + " scope" + (hidden.size() == 1 ? " lies" : "s lie") + " below " + first
            + (s.grants().namespaces().size() == 1 ? "" : " and the other grants") + ", out of sight (a grant sees its own"
            + " scope and its ancestors): list them with --below " + first + " and pass one as --grant to look inside");
      }
      out().flush();
      return EngramCli.OK;
    }
  }

  @Command(name = "ls", description = "List entries (active ones unless --all).")
  static final class Ls extends BaseCommand {
    @Option(names = "--topic", paramLabel = "T", description = "only entries filed under this topic")
    @Nullable String topic;

    @Option(names = "--scope", paramLabel = "NS", description = "only entries of this visible scope")
    @Nullable String scope;

    @Option(names = "--all", description = "include superseded versions and retired entries")
    boolean all;

    @Override
    int run(Session s) {
      ListOptions.Builder b = ListOptions.builder().includeSuperseded(all).includeRetired(all);
      if (topic != null) {
        b.topic(topic);
      }
      if (scope != null) {
        b.scope(scope);
      }
      List<MemoryEntry> entries = s.engram().list(s.grants(), b.build());
      if (json()) {
        printJson(entries(entries));
      } else if (entries.isEmpty()) {
        out().println("no entries");
        out().flush();
      } else {
        entryTable(out(), entries);
      }
      return EngramCli.OK;
    }
  }

  @Command(name = "show", description = "Show one entry (its current version) or one version, in full.")
  static final class Show extends BaseCommand {
    @Parameters(paramLabel = "REF", description = "an entry id or a version id")
    String ref;

    @Override
    int run(Session s) {
      MemoryEntry e = s.resolve(ref);
      if (json()) {
        printJson(Json.entryNode(e));
      } else {
        details(out(), e);
      }
      return EngramCli.OK;
    }
  }

  @Command(name = "history", description = "The events of an entry: every change with actor, reason and revision.")
  static final class History extends BaseCommand {
    @Parameters(paramLabel = "REF", description = "an entry id or a version id")
    String ref;

    @Override
    int run(Session s) {
      MemoryEntry e = s.resolve(ref);
      List<MemoryEvent> events = s.engram().history(s.grants(), e.entryId());
      if (json()) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        events.forEach(ev -> a.add(Json.eventNode(ev)));
        printJson(a);
        return EngramCli.OK;
      }
      Table t = Table.of("EVENT", "KIND", "REVISION", "AT", "ACTOR:20", "REASON:30", "CHANGE:50");
      for (MemoryEvent ev : events) {
        t.row(ev.eventId(), ev.kind().name().toLowerCase(Locale.ROOT), ev.revision(), ev.at(), ev.actor(),
            ev.reason(), Diff.summary(ev.before(), ev.after()));
      }
      t.print(out());
      return EngramCli.OK;
    }
  }

  @Command(name = "search", description = {"Search the visible memory (full text, vectors or both).",
      "Each hit shows its score (relative within this search; higher is better), the channels that found it with"
          + " its rank in each, and the best cosine of its vectors to the query."})
  static final class Search extends BaseCommand {
    @Parameters(paramLabel = "QUERY", description = "what to look for")
    String query;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "auto",
        description = "auto, fts, vector or hybrid (default: ${DEFAULT-VALUE})")
    SearchMode mode;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "10", description = "at most N hits (default: ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--topic", paramLabel = "T", description = "only entries filed under these topics")
    List<String> topics = List.of();

    @Override
    int run(Session s) {
      SearchResult r = s.engram().search(s.grants(),
          SearchRequest.builder(query).mode(mode).limit(limit).topics(topics.toArray(String[]::new)).build());
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("requested", r.requested().name().toLowerCase(Locale.ROOT));
        n.put("used", r.used().name().toLowerCase(Locale.ROOT));
        n.put("fallbackReason", r.fallbackReason());
        ArrayNode hits = n.putArray("hits");
        for (SearchHit h : r.hits()) {
          ObjectNode hn = hits.addObject();
          hn.put("score", h.score());
          hn.put("ftsRank", h.ftsRank());
          hn.put("vectorRank", h.vectorRank());
          hn.put("cosine", h.cosine());
          ArrayNode by = hn.putArray("matchedBy");
          h.matchedBy().forEach(c -> by.add(c.name().toLowerCase(Locale.ROOT)));
          hn.put("citation", h.citation().render());
          hn.set("entry", Json.entryNode(h.entry()));
        }
        printJson(n);
        return EngramCli.OK;
      }
      out().println("mode " + r.used().name().toLowerCase(Locale.ROOT)
          + (r.used() == r.requested() ? "" : " (asked for " + r.requested().name().toLowerCase(Locale.ROOT) + ")")
          + (r.fallbackReason() == null ? "" : "; fell back: " + r.fallbackReason())
          + "; " + r.hits().size() + " hit" + (r.hits().size() == 1 ? "" : "s"));
      if (!r.hits().isEmpty()) {
        Table t = Table.of("#", "SCORE", "MATCHED", "COSINE", "ENTRY", "SCOPE", "CONTENT:60");
        int rank = 1;
        for (SearchHit h : r.hits()) {
          t.row(rank++, score(h.score()), ranks(h), h.cosine() == null ? "-" : String.format(Locale.ROOT, "%.3f", h.cosine()),
              h.entry().entryId(), h.entry().scope(), h.entry().content());
        }
        t.print(out());
      }
      out().flush();
      return EngramCli.OK;
    }
  }

  /**
   * A score with four significant digits whatever its size: fused scores are near 1, a single channel's
   * raw scores can be far smaller, and {@code %.4f} would print those as {@code 0.0000}.
   */
  static String score(double score) {
    if (score == 0 || !Double.isFinite(score)) {
      return Double.toString(score);
    }
    return Math.abs(score) >= 0.001 ? String.format(Locale.ROOT, "%.4f", score) : String.format(Locale.ROOT, "%.3e", score);
  }

  /** The channels that found a hit with its rank in each, e.g. {@code fts#2+vector#1}. */
  static String ranks(SearchHit h) {
    StringBuilder b = new StringBuilder();
    if (h.ftsRank() != null) {
      b.append("fts#").append(h.ftsRank());
    }
    if (h.vectorRank() != null) {
      b.append(b.length() == 0 ? "" : "+").append("vector#").append(h.vectorRank());
    }
    return b.length() == 0 ? matchedBy(h) : b.toString();
  }

  static String matchedBy(SearchHit h) {
    return h.matchedBy().stream().map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining("+"));
  }

  @Command(name = "context", description = "The context block an agent would be given for a query.")
  static final class Context extends BaseCommand {
    @Parameters(paramLabel = "QUERY", description = "what the agent is about to do")
    String query;

    @Option(names = "--bytes", paramLabel = "N", defaultValue = "" + ContextRequest.DEFAULT_MAX_BYTES,
        description = "UTF-8 byte budget, 512 to 32768 (default: ${DEFAULT-VALUE})")
    int bytes;

    @Override
    int run(Session s) {
      PreparedContext c = s.engram().prepareContext(s.grants(), ContextRequest.of(query, bytes));
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("status", c.status().name().toLowerCase(Locale.ROOT));
        n.put("contentBytes", c.contentBytes());
        n.put("maxBytes", bytes);
        n.put("content", c.content());
        ArrayNode cites = n.putArray("citations");
        c.citations().forEach(ci -> cites.add(ci.render()));
        printJson(n);
        return EngramCli.OK;
      }
      if (c.content() != null) {
        out().println(Table.printableLines(c.content().stripTrailing()));
        out().println();
      }
      out().println(c.status().name().toLowerCase(Locale.ROOT) + ": " + c.contentBytes() + " of " + bytes
          + " bytes, " + c.citations().size() + " citation" + (c.citations().size() == 1 ? "" : "s"));
      out().flush();
      return EngramCli.OK;
    }
  }
}

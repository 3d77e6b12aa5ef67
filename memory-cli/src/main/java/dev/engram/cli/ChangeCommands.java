/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ChangeOptions;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that change memory; each change is recorded in history under the actor {@value #ACTOR}. */
final class ChangeCommands {
  /** The source (actor) the command line records on what it writes, unless --source says otherwise. */
  static final String ACTOR = "engram-cli";

  private ChangeCommands() {}

  /** Options shared by the commands that record a reason. */
  abstract static class Change extends BaseCommand {
    @Option(names = "--reason", paramLabel = "TEXT", description = "why, recorded in history")
    @Nullable String reason;

    ChangeOptions options() {
      ChangeOptions o = ChangeOptions.builder().source(ACTOR).origin("console").build();
      return reason == null ? o : o.toBuilder().reason(reason).build();
    }

    int printVersion(String verb, MemoryEntry e) {
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("outcome", verb);
        n.set("entry", Json.entryNode(e));
        printJson(n);
      } else {
        out().println(verb + " " + e.entryId() + " v" + e.version() + " (" + e.versionId() + ") in " + e.scope()
            + ", now " + e.status().name().toLowerCase(Locale.ROOT));
        out().flush();
      }
      return EngramCli.OK;
    }
  }

  @Command(name = "write", description = "Write a memory through the reasoner's write pipeline (deduped).")
  static final class Write extends BaseCommand {
    @Parameters(paramLabel = "TEXT", description = "the content")
    String text;

    @Option(names = "--topic", paramLabel = "T", description = "topic hint(s)")
    List<String> topics = List.of();

    @Option(names = "--type", paramLabel = "TYPE", description = "fact, preference, event, summary, decision or constraint")
    @Nullable String type;

    @Option(names = "--priority", paramLabel = "P", description = "0 core, 1 key, 2+ general")
    @Nullable Integer priority;

    @Option(names = "--path", paramLabel = "PATH", description = "stable address; an active entry there is updated")
    @Nullable String path;

    @Option(names = "--source", paramLabel = "WHO", defaultValue = ACTOR, description = "recorded actor (default: ${DEFAULT-VALUE})")
    String source;

    @Override
    boolean creates() {
      return true;
    }

    @Override
    int run(Session s) {
      WriteOptions.Builder b = WriteOptions.builder().topicsHint(topics).source(source).origin("console");
      if (type != null) {
        b.type(EntryType.fromWireName(type));
      }
      if (priority != null) {
        b.priority(priority);
      }
      if (path != null) {
        b.path(path);
      }
      WriteResult r = s.engram().write(s.grants(), text, b.build());
      String outcome = r.outcome().name().toLowerCase(Locale.ROOT);
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("outcome", outcome);
        n.put("revision", r.revision());
        n.put("citation", r.citation().render());
        n.set("entry", Json.entryNode(r.entry()));
        printJson(n);
      } else {
        MemoryEntry e = r.entry();
        out().println(outcome + " " + e.entryId() + " v" + e.version() + " in " + e.scope() + " ["
            + String.join(", ", e.topics()) + "] revision " + r.revision());
        out().flush();
      }
      return EngramCli.OK;
    }
  }

  @Command(name = "correct", description = "Replace an entry's content with a new version (the old one stays in history).")
  static final class Correct extends Change {
    @Parameters(index = "0", paramLabel = "REF", description = "an entry id or a version id")
    String ref;

    @Parameters(index = "1", paramLabel = "TEXT", description = "the corrected content")
    String text;

    @Override
    int run(Session s) {
      MemoryEntry current = s.resolve(ref);
      return printVersion("corrected", s.engram().correct(s.grants(), current.entryId(), text, options()));
    }
  }

  @Command(name = "retire", description = "Retire an entry: kept in history, no longer read, searched or given as context.")
  static final class Retire extends Change {
    @Parameters(paramLabel = "REF", description = "an entry id or its current version id")
    String ref;

    @Override
    int run(Session s) {
      MemoryEntry current = s.resolve(ref);
      return printVersion("retired", s.engram().retire(s.grants(), current.citation(), options()));
    }
  }

  @Command(name = "reactivate", description = "Bring a retired entry back.")
  static final class Reactivate extends Change {
    @Parameters(paramLabel = "REF", description = "an entry id or its current version id")
    String ref;

    @Override
    int run(Session s) {
      MemoryEntry current = s.resolve(ref);
      return printVersion("reactivated", s.engram().reactivate(s.grants(), current.citation(), options()));
    }
  }

  @Command(name = "rollback", description = "Restore the version a create/update event recorded, as a new version.")
  static final class Rollback extends Change {
    @Parameters(paramLabel = "EVENT", description = "an event id from `engram history`")
    String event;

    @Override
    int run(Session s) {
      return printVersion("rolled back", s.engram().rollback(s.grants(), event, options()));
    }
  }

  @Command(name = "reindex", description = "Embed what the visible entries lack under the embedder (after a writer"
      + " without it, a failed embedding, an import or another embedder); makes no revision.")
  static final class Reindex extends BaseCommand {
    @Override
    int run(Session s) {
      int embedded = s.engram().operator().reindex(s.grants());
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("embedded", embedded);
        printJson(n);
      } else {
        out().println("embedded " + embedded + (embedded == 1 ? " version" : " versions"));
        out().flush();
      }
      return EngramCli.OK;
    }
  }

  @Command(name = "erase", description = "Erase a scope for good: entries, versions, history, indexes. Needs --yes.")
  static final class Erase extends BaseCommand {
    @Parameters(paramLabel = "SCOPE", description = "the scope to erase (writable under the grants)")
    String scope;

    @Option(names = "--recursive", description = "also erase every scope below it")
    boolean recursive;

    @Option(names = "--yes", description = "confirm: erasure cannot be undone")
    boolean yes;

    @Override
    void before() {
      if (!yes) {
        throw new UsageException("erase removes " + scope + (recursive ? " and every scope below it" : "")
            + " with its whole history and cannot be undone; add --yes to confirm");
      }
    }

    @Override
    int run(Session s) {
      int removed = s.engram().deleteScope(s.grants(), scope,
          recursive ? dev.engram.DeleteScopeOptions.withDescendants() : dev.engram.DeleteScopeOptions.defaults());
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("scope", scope);
        n.put("recursive", recursive);
        n.put("removed", removed);
        printJson(n);
      } else {
        out().println("erased " + removed + (removed == 1 ? " entry" : " entries") + " from " + scope
            + (recursive ? " and below" : ""));
        out().flush();
      }
      return EngramCli.OK;
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ApproveRequest;
import dev.engram.RejectRequest;
import dev.engram.ReviewChange;
import dev.engram.ReviewDetail;
import dev.engram.ReviewItem;
import dev.engram.ReviewKind;
import dev.engram.ReviewListOptions;
import dev.engram.ReviewOutcome;
import dev.engram.ReviewState;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code engram review list|show|approve|reject}: the review inbox of the scopes the grants reach.
 * Every decision names the item version that was read ({@code --version}); a stale one is refused and
 * changes nothing.
 */
final class ReviewCommands {
  private ReviewCommands() {}

  @Command(name = "review", description = "The review inbox: model-made changes waiting for a person"
      + " (new experience; curation ops and extracted memories when review is on for them).",
      subcommands = {ListItems.class, Show.class, Approve.class, Reject.class})
  static final class Review implements Runnable {
    @CommandLine.Mixin
    Target.Help help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "name a review command: list, show, approve or reject");
    }
  }

  @Command(name = "list", description = "Review items of the visible scopes, oldest first (pending by default).")
  static final class ListItems extends BaseCommand {
    @Option(names = "--state", paramLabel = "STATE", description = "pending (default), approved, rejected or all")
    String state = "pending";

    @Option(names = "--kind", paramLabel = "KIND", description = "experience, curation or extraction (default: all)")
    @Nullable String kind;

    @Option(names = "--limit", paramLabel = "N", description = "the most items (default ${DEFAULT-VALUE})")
    int limit = ReviewListOptions.DEFAULT_LIMIT;

    @Override
    int run(Session s) {
      ReviewListOptions.Builder b = ReviewListOptions.builder().states(states(state)).limit(limit);
      if (kind != null) {
        b.kinds(EnumSet.of(kind(kind)));
      }
      List<ReviewItem> items = s.engram().review().list(s.grants(), b.build());
      if (json()) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        items.forEach(i -> a.add(ReviewText.node(i)));
        printJson(a);
        return EngramCli.OK;
      }
      if (items.isEmpty()) {
        out().println("no " + state.toLowerCase(Locale.ROOT) + " review items");
        out().flush();
        return EngramCli.OK;
      }
      Table t = Table.of("ID", "KIND", "STATE", "VERSION", "SCOPE", "CREATED", "SUMMARY:80");
      for (ReviewItem i : items) {
        t.row(i.id(), lower(i.kind()), lower(i.state()), i.version(), i.scope(), i.createdAt(), ReviewText.summary(i));
      }
      t.print(out());
      return EngramCli.OK;
    }
  }

  @Command(name = "show", description = "One review item with its diff against the current state.")
  static final class Show extends BaseCommand {
    @Parameters(paramLabel = "ID", description = "the review item")
    String id;

    @Override
    int run(Session s) {
      ReviewDetail d = s.engram().review().get(s.grants(), id);
      if (json()) {
        printJson(ReviewText.node(d));
        return EngramCli.OK;
      }
      ReviewItem i = d.item();
      out().println(lower(i.kind()) + " item " + i.id() + " in " + i.scope() + ": " + lower(i.state()) + ", version "
          + i.version());
      out().println("proposed by " + i.proposedBy() + " at " + i.createdAt()
          + (i.evidence().isEmpty() ? "" : ", evidence " + String.join(", ", i.evidence())));
      if (i.decidedBy() != null) {
        out().println("last decided or revised by " + i.decidedBy() + " at " + i.updatedAt()
            + (i.reason() == null ? "" : ": " + i.reason()));
      }
      for (ReviewChange c : d.changes()) {
        out().println();
        out().println(c.subject() + " · " + c.field());
        out().println("  - " + (c.before() == null ? "(none)" : Table.printableLines(c.before())));
        out().println("  + " + (c.after() == null ? "(none)" : Table.printableLines(c.after())));
      }
      for (String w : d.warnings()) {
        out().println("warning: " + w);
      }
      out().flush();
      return EngramCli.OK;
    }
  }

  /** Options of a decision. */
  abstract static class Decision extends BaseCommand {
    @Parameters(paramLabel = "ID", description = "the review item")
    String id;

    @Option(names = "--version", required = true, paramLabel = "N",
        description = "the item version you read (review show); a stale one is refused")
    long version;

    @Option(names = "--reviewer", paramLabel = "WHO", defaultValue = ReviewText.REVIEWER,
        description = "recorded as the actor (default: ${DEFAULT-VALUE})")
    String reviewer;

    int print(String verb, ReviewItem item, @Nullable ObjectNode extra) {
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("outcome", verb);
        n.set("item", ReviewText.node(item));
        if (extra != null) {
          n.setAll(extra);
        }
        printJson(n);
      } else {
        out().println(verb + " " + item.id() + " (" + lower(item.kind()) + "), now version " + item.version());
        out().flush();
      }
      return EngramCli.OK;
    }
  }

  @Command(name = "approve", description = "Approve a pending item: its change commits with you as the actor.")
  static final class Approve extends Decision {
    @Option(names = "--note", paramLabel = "TEXT", description = "a note, kept on the item")
    @Nullable String note;

    @Override
    int run(Session s) {
      ApproveRequest.Builder b = ApproveRequest.builder(version, reviewer).origin("console");
      if (note != null) {
        b.note(note);
      }
      ReviewOutcome o = s.engram().review().approve(s.grants(), id, b.build());
      ObjectNode extra = Json.MAPPER.createObjectNode();
      ArrayNode entries = extra.putArray("entries");
      o.entries().forEach(c -> entries.add(c.render()));
      extra.put("experience", o.experience() == null ? null : o.experience().citation().render());
      extra.put("curationRunId", o.curationRunId());
      ArrayNode warnings = extra.putArray("warnings");
      o.warnings().forEach(warnings::add);
      int code = print("approved", o.item(), extra);
      if (!json()) {
        o.entries().forEach(c -> out().println("  entry " + c.render()));
        if (o.experience() != null) {
          out().println("  experience " + o.experience().citation().render());
        }
        if (o.curationRunId() != null) {
          out().println("  undo with the curation run id " + o.curationRunId());
        }
        o.warnings().forEach(w -> out().println("warning: " + w));
        out().flush();
      }
      return code;
    }
  }

  @Command(name = "reject", description = "Reject a pending item with a reason; nothing else changes.")
  static final class Reject extends Decision {
    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why (up to 2,000 characters)")
    String reason;

    @Override
    int run(Session s) {
      return print("rejected", s.engram().review().reject(s.grants(), id, RejectRequest.of(version, reviewer, reason)),
          null);
    }
  }

  static Set<ReviewState> states(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    if (n.equals("all")) {
      return EnumSet.allOf(ReviewState.class);
    }
    for (ReviewState s : ReviewState.values()) {
      if (lower(s).equals(n)) {
        return EnumSet.of(s);
      }
    }
    throw new UsageException("unknown state '" + name + "'; use pending, approved, rejected or all");
  }

  static ReviewKind kind(String name) {
    for (ReviewKind k : ReviewKind.values()) {
      if (lower(k).equals(name.strip().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw new UsageException("unknown kind '" + name + "'; use experience, curation or extraction");
  }

  static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}

package dev.engram.examples;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import java.io.PrintStream;
import java.util.List;

/**
 * A walk through the core calls: write, dedupe, read, scan, correct, history, retire and the audit
 * listing. Runs on the in-memory store with the deterministic reasoner: no server, no API key.
 */
public final class QuickStart {
  private QuickStart() {}

  public static void main(String[] args) {
    run(new InMemoryMemoryStore(), System.out);
  }

  /** Runs the walk-through on {@code store}, printing to {@code out}. */
  public static void run(MemoryStore store, PrintStream out) {
    try (Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      Grants grants = Grants.of("app/user/u_123");

      out.println("== write");
      WriteResult w = engram.write(grants, "Prefers metric units.",
          WriteOptions.builder().topicsHint("preferences").type(dev.engram.EntryType.PREFERENCE).build());
      out.println(w.outcome() + "  " + show(w.entry()));
      engram.write(grants, "Training for a marathon in April.", WriteOptions.builder().topicsHint("goals").build());
      engram.write(grants, "Owns dumbbells and a bench.",
          WriteOptions.builder().topicsHint("equipment", "core").priority(1).build());

      out.println("== write the same thing again (canonical dedupe: no new revision)");
      WriteResult again = engram.write(grants, "  Prefers   metric units. ",
          WriteOptions.builder().topicsHint("preferences").build());
      out.println(again.outcome() + "  revision still " + again.revision());

      out.println("== read preferences + goals");
      for (MemoryEntry e : engram.read(grants, List.of("preferences", "goals"))) {
        out.println("  " + show(e));
      }

      out.println("== scan");
      for (TopicSummary t : engram.scan(grants)) {
        out.println("  " + t.scope() + " / " + t.topic() + ": " + t.count() + " active"
            + (t.hasUncuratedWrites() ? ", uncurated writes" : ""));
      }

      out.println("== correct (new version; the old one is superseded, never edited)");
      MemoryEntry fixed = engram.correct(grants, w.entry().entryId(), "Prefers imperial units.");
      out.println("  " + show(fixed) + " (previous " + fixed.previousVersionId() + ")");

      out.println("== history");
      for (MemoryEvent ev : engram.history(grants, fixed.entryId())) {
        out.println("  r" + ev.revision() + " " + ev.kind() + ": "
            + (ev.before() == null ? "-" : ev.before().content()) + " -> "
            + (ev.after() == null ? "-" : ev.after().content()));
      }

      out.println("== retire");
      MemoryEntry retired = engram.retire(grants, fixed.citation(), "moved to Europe");
      out.println("  " + show(retired));
      out.println("  active preferences now: " + engram.read(grants, "preferences").size());

      out.println("== list with superseded (the audit view)");
      for (MemoryEntry e : engram.list(grants, ListOptions.builder().includeSuperseded(true).build())) {
        out.println("  " + show(e));
      }
      out.println("== scope revision: " + engram.revision(grants, "app/user/u_123"));
    }
  }

  private static String show(MemoryEntry e) {
    return "[" + e.status() + " v" + e.version() + " r" + e.createdInRevision() + " " + e.topics() + "] "
        + e.content();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Engram;
import dev.engram.EntryStateException;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.PathConflictException;
import dev.engram.PathNode;
import dev.engram.ScopeViolationException;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Move: a new version at another path with a MOVE event, the old path free, the entries below the
 * path moved with it in the same commit, an occupied path (of the entry or of any entry below it) a
 * typed conflict that refuses the whole move, and MOVE events (like erasures) never rolled back.
 */
public abstract class MoveContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final Grants U1 = Grants.of(S1);

  private static MemoryEntry at(Engram engram, String path, String content) {
    return engram.write(U1, content, WriteOptions.builder().path(path).priority(1).disclosure("When testing moves")
        .glossary("move").build()).entry();
  }

  /** A parent node, at the default priority: a path below the top level of a Lore domain needs one. */
  private static MemoryEntry parent(Engram engram, Grants grants, String path) {
    return engram.write(grants, "The node " + path + ".", WriteOptions.builder().path(path).build()).entry();
  }

  @Test
  void moveMakesANewVersionAtTheNewPathAndFreesTheOldOne() {
    Engram engram = newEngram(new dev.engram.reasoner.DeterministicReasoner(), Fixtures.clocked());
    parent(engram, U1, "project://checkout_api");
    MemoryEntry v1 = at(engram, "project://checkout_api/hooks", "Refund webhooks are idempotent by event.id.");
    MemoryEntry v2 = engram.move(U1, v1.entryId(), "project://checkout_api/webhooks");

    assertThat(v2.entryId()).isEqualTo(v1.entryId());
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.previousVersionId()).isEqualTo(v1.versionId());
    assertThat(v2.path()).isEqualTo("project://checkout_api/webhooks");
    assertThat(v2).usingRecursiveComparison()
        .comparingOnlyFields("content", "contentHash", "topics", "type", "priority", "disclosure", "glossary", "scope")
        .isEqualTo(v1);
    assertThat(engram.get(U1, v1.citation()).path()).isEqualTo("project://checkout_api/hooks");

    MemoryEvent move = engram.history(U1, v1.entryId()).get(1);
    assertThat(move.kind()).isEqualTo(EventKind.MOVE);
    assertThat(move.before().path()).isEqualTo("project://checkout_api/hooks");
    assertThat(move.after()).isEqualTo(v2);
    assertThat(engram.changes(U1, S1, v1.createdInRevision()).get(0).changes()).containsExactly(
        new Change(ChangeKind.MOVE, v1.entryId(), v2.versionId()),
        new Change(ChangeKind.SUPERSEDE, v1.entryId(), v1.versionId()));

    assertThat(engram.browse(U1, "project://checkout_api/")).extracting(PathNode::path)
        .containsExactly("project://checkout_api/webhooks");
    WriteResult reuse = engram.write(U1, "A new fact at the freed path.",
        WriteOptions.builder().path("project://checkout_api/hooks").build());
    assertThat(reuse.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(reuse.entry().entryId()).isNotEqualTo(v1.entryId());
  }

  @Test
  void movingOntoAnOccupiedPathIsATypedConflictAndChangesNothing() {
    Engram engram = newEngram();
    parent(engram, U1, "project://p");
    MemoryEntry a = at(engram, "project://p/a", "Fact a.");
    MemoryEntry b = at(engram, "project://p/b", "Fact b.");
    long head = engram.revision(U1, S1);
    PathConflictException e = catchThrowableOfType(
        PathConflictException.class, () -> engram.move(U1, a.entryId(), "project://p/b"));
    assertThat(e.path()).isEqualTo("project://p/b");
    assertThat(e.holderEntryId()).isEqualTo(b.entryId());
    assertThat(e.scope()).isEqualTo(S1);
    assertThat(e).hasMessageContaining(b.entryId()).hasMessageContaining("project://p/b");
    assertThat(engram.revision(U1, S1)).isEqualTo(head);
    assertThat(engram.get(U1, a.entryId())).isEqualTo(a);

    assertThat(engram.move(U1, a.entryId(), "project://p/a")).isEqualTo(a);
    assertThat(engram.revision(U1, S1)).isEqualTo(head);
  }

  @Test
  void moveEventsAndErasuresAreNeverRolledBack() {
    Engram engram = newEngram();
    parent(engram, U1, "project://p");
    MemoryEntry v1 = at(engram, "project://p/old", "A fact that moves.");
    MemoryEntry v2 = engram.move(U1, v1.entryId(), "project://p/new");
    List<MemoryEvent> history = engram.history(U1, v1.entryId());
    MemoryEvent move = history.get(1);
    assertThatThrownBy(() -> engram.rollback(U1, move.eventId())).isInstanceOf(EntryStateException.class)
        .hasMessageContaining("MOVE");
    assertThat(engram.get(U1, v1.entryId())).isEqualTo(v2);

    MemoryEntry v3 = engram.rollback(U1, history.get(0).eventId());
    assertThat(v3.path()).as("a rollback restores content and metadata, not the path").isEqualTo("project://p/new");

    engram.deleteEntry(U1, v1.entryId());
    assertThatThrownBy(() -> engram.rollback(U1, history.get(0).eventId())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.history(U1, v1.entryId())).isInstanceOf(NotFoundException.class);
  }

  @Test
  void aPathlessEntryCanBeGivenAPathAndInactiveEntriesCannotMove() {
    Engram engram = newEngram();
    MemoryEntry plain = write(engram, U1, "A fact without a path.").entry();
    MemoryEntry moved = engram.move(U1, plain.entryId(), "notes/plain");
    assertThat(moved.path()).isEqualTo("notes/plain");

    engram.retire(U1, moved.citation(), "gone");
    long head = engram.revision(U1, S1);
    assertThatThrownBy(() -> engram.move(U1, plain.entryId(), "notes/elsewhere"))
        .isInstanceOf(EntryStateException.class).hasMessageContaining("RETIRED");
    assertThat(engram.revision(U1, S1)).isEqualTo(head);
  }

  @Test
  void moveChecksGrantsAndPaths() {
    Engram engram = newEngram();
    parent(engram, U1, "project://p");
    MemoryEntry a = at(engram, "project://p/a", "Fact a.");
    assertThatThrownBy(() -> engram.move(Grants.of(Fixtures.S2), a.entryId(), "project://p/z"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.move(Grants.of("app/user/u1/sub"), a.entryId(), "project://p/z"))
        .isInstanceOf(ScopeViolationException.class);
    for (String bad : new String[] {"", "project://../x", "a//b", "x/", "p://a b"}) {
      assertThatThrownBy(() -> engram.move(U1, a.entryId(), bad)).as(bad).isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("newPath");
    }
    assertThatThrownBy(() -> engram.move(U1, a.entryId(), null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> engram.move(U1, "no such id", "x")).isInstanceOf(InvalidInputException.class);
    assertThat(engram.get(U1, a.entryId())).isEqualTo(a);
  }
  @Test
  void moveCarriesTheSubtreeInOneCommit() {
    Engram engram = newEngram();
    MemoryEntry billing = at(engram, "project://billing", "Billing runs monthly.");
    MemoryEntry invoices = at(engram, "project://billing/invoices", "Invoices are numbered per year.");
    MemoryEntry late = at(engram, "project://billing/invoices/late", "Late invoices get a reminder.");
    MemoryEntry beside = at(engram, "project://billingx", "A sibling whose path only starts alike.");
    parent(engram, Grants.of(Fixtures.S2), "project://billing");
    MemoryEntry elsewhere = engram.write(Grants.of(Fixtures.S2), "Another user's invoices.",
        WriteOptions.builder().path("project://billing/invoices").build()).entry();
    long head = engram.revision(U1, S1);

    MemoryEntry moved = engram.move(U1, billing.entryId(), "project://finance");

    assertThat(moved.path()).isEqualTo("project://finance");
    assertThat(engram.get(U1, invoices.entryId()).path()).isEqualTo("project://finance/invoices");
    assertThat(engram.get(U1, late.entryId()).path()).isEqualTo("project://finance/invoices/late");
    assertThat(engram.get(U1, invoices.entryId())).usingRecursiveComparison()
        .comparingOnlyFields("content", "contentHash", "topics", "type", "priority", "disclosure", "glossary")
        .isEqualTo(invoices);
    assertThat(engram.get(U1, beside.entryId())).isEqualTo(beside);
    assertThat(engram.get(Grants.of(Fixtures.S2), elsewhere.entryId())).isEqualTo(elsewhere);
    assertThat(engram.browse(U1, "project://billing/")).isEmpty();
    assertThat(engram.browse(U1, "project://finance/invoices/")).extracting(PathNode::path)
        .containsExactly("project://finance/invoices/late");

    assertThat(engram.revision(U1, S1)).as("one commit").isEqualTo(head + 1);
    assertThat(engram.changes(U1, S1, head).get(0).changes()).filteredOn(c -> c.kind() == ChangeKind.MOVE)
        .extracting(Change::entryId).containsExactlyInAnyOrder(billing.entryId(), invoices.entryId(), late.entryId());
    for (MemoryEntry e : List.of(billing, invoices, late)) {
      List<MemoryEvent> history = engram.history(U1, e.entryId());
      assertThat(history).last().satisfies(ev -> {
        assertThat(ev.kind()).isEqualTo(EventKind.MOVE);
        assertThat(ev.before().path()).isEqualTo(e.path());
        assertThat(ev.revision()).isEqualTo(head + 1);
      });
    }
  }

  // The next two use a domain outside Lore's, which needs no parents: in core://, preferences:// and
  // project:// a deeper new place is only held when the subtree's own new place is held too, and a node
  // cannot move below itself (LoreAddressingContract).
  @Test
  void aConflictAnywhereInTheSubtreeRefusesTheWholeMove() {
    Engram engram = newEngram();
    MemoryEntry billing = at(engram, "notes://billing", "Billing runs monthly.");
    MemoryEntry invoices = at(engram, "notes://billing/invoices", "Invoices are numbered per year.");
    MemoryEntry late = at(engram, "notes://billing/invoices/late", "Late invoices get a reminder.");
    MemoryEntry holder = at(engram, "notes://finance/invoices/late", "Already here.");
    long head = engram.revision(U1, S1);
    List<MemoryEntry> before = everything(engram, U1);

    PathConflictException e = catchThrowableOfType(PathConflictException.class,
        () -> engram.move(U1, billing.entryId(), "notes://finance"));

    assertThat(e.path()).isEqualTo("notes://finance/invoices/late");
    assertThat(e.holderEntryId()).isEqualTo(holder.entryId());
    assertThat(e.scope()).isEqualTo(S1);
    assertThat(e).hasMessageContaining("notes://finance/invoices/late");
    assertThat(engram.revision(U1, S1)).isEqualTo(head);
    assertThat(everything(engram, U1)).isEqualTo(before);
    for (MemoryEntry m : List.of(billing, invoices, late)) {
      assertThat(engram.get(U1, m.entryId())).isEqualTo(m);
    }

    String deep = "notes://s/" + "n".repeat(100);
    MemoryEntry node = at(engram, "notes://s/n", "A node with a long child.");
    at(engram, "notes://s/n/" + "c".repeat(200), "The long child.");
    long head2 = engram.revision(U1, S1);
    assertThatThrownBy(() -> engram.move(U1, node.entryId(), deep)).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("newPath").hasMessageContaining("256");
    assertThat(engram.revision(U1, S1)).isEqualTo(head2);
    assertThat(engram.get(U1, node.entryId())).isEqualTo(node);
  }

  @Test
  void aSubtreeMovesBelowItselfAndUpIntoItsOwnPlaces() {
    Engram engram = newEngram();
    MemoryEntry a = at(engram, "notes://t/a", "Node a.");
    MemoryEntry inner = at(engram, "notes://t/a/inner", "Node a/inner.");
    engram.move(U1, a.entryId(), "notes://t/a/inner");
    assertThat(engram.get(U1, a.entryId()).path()).isEqualTo("notes://t/a/inner");
    assertThat(engram.get(U1, inner.entryId()).path()).isEqualTo("notes://t/a/inner/inner");

    MemoryEntry y = at(engram, "notes://u/x/y", "Node y.");
    MemoryEntry yz = at(engram, "notes://u/x/y/z", "Node y/z.");
    MemoryEntry yy = at(engram, "notes://u/x/y/y", "Node y/y.");
    MemoryEntry yyz = at(engram, "notes://u/x/y/y/z", "Node y/y/z.");
    engram.move(U1, y.entryId(), "notes://u/x");
    assertThat(engram.get(U1, y.entryId()).path()).isEqualTo("notes://u/x");
    assertThat(engram.get(U1, yz.entryId()).path()).isEqualTo("notes://u/x/z");
    assertThat(engram.get(U1, yy.entryId()).path()).isEqualTo("notes://u/x/y");
    assertThat(engram.get(U1, yyz.entryId()).path()).isEqualTo("notes://u/x/y/z");
  }
}

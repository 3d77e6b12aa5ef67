/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.BatchWriteResult;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.ParentNotFoundException;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.WriteResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lore addressing: in the {@code core://}, {@code preferences://} and {@code project://} domains every path
 * segment is lowercase snake_case, and a path below the top level needs an active entry of the same scope at
 * its parent, for writes (single and batched), extraction and moves. Paths of other domains keep the general
 * rule. Each refusal is typed and changes nothing.
 */
public abstract class LoreAddressingContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final String S2 = Fixtures.S2;
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);

  private static WriteResult at(Engram engram, Grants grants, String path, String content) {
    return engram.write(grants, content, WriteOptions.builder().path(path).build());
  }

  @Test
  void segmentsOfLoreDomainsAreLowercaseSnakeCase() {
    Engram engram = newEngram();
    assertThatThrownBy(() -> at(engram, U1, "project://Checkout-API", "Uppercase and a dash."))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> {
          assertThat(e.field()).isEqualTo("path");
          assertThat(e.getMessage()).contains("'Checkout-API'", "lowercase snake_case", "project://checkout_api");
        });
    at(engram, U1, "project://checkout_api", "The checkout service.");
    assertThatThrownBy(() -> at(engram, U1, "project://checkout_api/Web.hooks", "A dot and a capital."))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'Web.hooks'").hasMessageContaining("project://checkout_api/web_hooks");
    for (String bad : List.of("core://Agent_Rules", "preferences://user__tone", "project://_a", "project://a_",
        "project://checkout_api/web-hooks", "project://checkout_api/caf\u00e9", "project://checkout api")) {
      assertThatThrownBy(() -> at(engram, U1, bad, "A bad address " + bad))
          .as(bad).isInstanceOf(InvalidInputException.class);
    }
    assertThat(engram.list(U1)).extracting(MemoryEntry::path).containsExactly("project://checkout_api");
    assertThat(engram.revision(U1, S1)).isEqualTo(1);

    for (String good : List.of("project://v2", "project://a1_b2_c3", "core://rules", "preferences://tone")) {
      assertThat(at(engram, U1, good, "A good address " + good).outcome()).as(good)
          .isEqualTo(WriteResult.Outcome.APPENDED);
    }
  }

  @Test
  void otherDomainsAndPathsWithoutADomainKeepTheGeneralRule() {
    Engram engram = newEngram();
    for (String path : List.of("memories://Notes/Today.md", "doc://Guide-v2/Intro", "notes/Deep/Child.txt")) {
      assertThat(at(engram, U1, path, "Kept at " + path).outcome()).as(path).isEqualTo(WriteResult.Outcome.APPENDED);
    }
  }

  @Test
  void aPathBelowTheTopLevelNeedsAnActiveParentInTheSameScope() {
    Engram engram = newEngram();
    assertThatThrownBy(() -> at(engram, U1, "project://checkout_api/webhooks", "Refund webhooks are idempotent."))
        .isInstanceOfSatisfying(ParentNotFoundException.class, e -> {
          assertThat(e.scope()).isEqualTo(S1);
          assertThat(e.path()).isEqualTo("project://checkout_api/webhooks");
          assertThat(e.parent()).isEqualTo("project://checkout_api");
          assertThat(e.getMessage()).contains("project://checkout_api", "write the parent first");
        });
    assertThat(engram.list(U1)).isEmpty();
    assertThat(engram.revision(U1, S1)).isZero();

    // a parent in another scope is not this scope's parent
    at(engram, U2, "project://checkout_api", "Another user's checkout project.");
    assertThatThrownBy(() -> at(engram, U1, "project://checkout_api/webhooks", "Refund webhooks are idempotent."))
        .isInstanceOf(ParentNotFoundException.class);

    MemoryEntry parent = at(engram, U1, "project://checkout_api", "The checkout service.").entry();
    at(engram, U1, "project://checkout_api/webhooks", "Refund webhooks are idempotent.");
    at(engram, U1, "project://checkout_api/webhooks/retries", "Webhook retries back off exponentially.");
    assertThat(engram.list(U1)).extracting(MemoryEntry::path).containsExactlyInAnyOrder("project://checkout_api",
        "project://checkout_api/webhooks", "project://checkout_api/webhooks/retries");

    // a retired parent is no parent: new children wait for it; the children it has stay where they are
    engram.retire(U1, parent.citation(), "project closed");
    assertThatThrownBy(() -> at(engram, U1, "project://checkout_api/refunds", "Refunds need approval."))
        .isInstanceOf(ParentNotFoundException.class);
    assertThat(at(engram, U1, "project://checkout_api/webhooks", "Refund webhooks are idempotent by event.id.")
        .outcome()).as("an entry already at its path is edited as before").isEqualTo(WriteResult.Outcome.UPDATED);
  }

  @Test
  void topLevelPathsAndBootNodesNeedNoParent() {
    Engram engram = newEngram();
    at(engram, U1, "core://agent/codex", "Codex runs the tests with mvn -o.");
    at(engram, U1, "project://billing", "The billing service.");
    at(engram, U1, "preferences://user", "Prefers short answers.");
    assertThat(engram.list(U1)).hasSize(3);
  }

  @Test
  void aBatchMayWriteTheParentBeforeItsChild() {
    Engram engram = newEngram();
    BatchWriteResult ok = engram.writeAll(U1, List.of(
        WriteRequest.of("The billing service.", WriteOptions.builder().path("project://billing").build()),
        WriteRequest.of("Invoices are monthly.", WriteOptions.builder().path("project://billing/invoices").build())));
    assertThat(ok.allWritten()).isTrue();

    BatchWriteResult childFirst = engram.writeAll(U1, List.of(
        WriteRequest.of("Payouts go out on Fridays.", WriteOptions.builder().path("project://payouts/schedule").build()),
        WriteRequest.of("The payouts service.", WriteOptions.builder().path("project://payouts").build())));
    assertThat(childFirst.rejected()).singleElement().satisfies(item -> {
      assertThat(item.index()).isZero();
      assertThat(item.error()).isInstanceOf(ParentNotFoundException.class);
    });
    assertThat(childFirst.items().get(1).ok()).isTrue();
    assertThat(engram.list(U1)).extracting(MemoryEntry::path).containsExactlyInAnyOrder("project://billing",
        "project://billing/invoices", "project://payouts");
  }

  @Test
  void aMoveNeedsTheParentOfItsTarget() {
    Engram engram = newEngram();
    MemoryEntry billing = at(engram, U1, "project://billing", "The billing service.").entry();
    at(engram, U1, "project://billing/invoices", "Invoices are monthly.");
    MemoryEntry loose = engram.write(U1, "Refunds over 500 need a second approval.").entry();
    long head = engram.revision(U1, S1);

    assertThatThrownBy(() -> engram.move(U1, loose.entryId(), "project://refunds/policy"))
        .isInstanceOfSatisfying(ParentNotFoundException.class,
            e -> assertThat(e.parent()).isEqualTo("project://refunds"));
    assertThatThrownBy(() -> engram.move(U1, billing.entryId(), "project://billing/archive"))
        .as("moving a node below itself leaves no parent at its old path")
        .isInstanceOfSatisfying(ParentNotFoundException.class,
            e -> assertThat(e.parent()).isEqualTo("project://billing"));
    assertThatThrownBy(() -> engram.move(U1, loose.entryId(), "project://Refunds"))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("newPath"));
    assertThat(engram.revision(U1, S1)).as("no refused move changed anything").isEqualTo(head);

    MemoryEntry finance = at(engram, U1, "project://finance", "The finance team's services.").entry();
    engram.move(U1, billing.entryId(), "project://finance/billing");
    engram.move(U1, loose.entryId(), "project://finance/billing/refunds");
    assertThat(engram.list(U1)).extracting(MemoryEntry::path).containsExactlyInAnyOrder("project://finance",
        "project://finance/billing", "project://finance/billing/invoices", "project://finance/billing/refunds");
    assertThat(engram.history(U1, finance.entryId())).extracting(MemoryEvent::kind).hasSize(1);
  }
}

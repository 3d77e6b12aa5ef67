/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.DomainSummary;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.PathNode;
import dev.engram.WriteOptions;
import org.junit.jupiter.api.Test;

/**
 * Domains and browsing: the schemes of active paths with their counts, and the direct children of a
 * prefix (entries and sub-prefixes), both over the visible scopes only and without content.
 */
public abstract class PathsContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final String S2 = Fixtures.S2;
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);

  private static MemoryEntry at(Engram engram, Grants grants, String path, String content) {
    return engram.write(grants, content, WriteOptions.builder().path(path).build()).entry();
  }

  @Test
  void domainsCountActiveEntriesWithAPathInVisibleScopes() {
    Engram engram = newEngram();
    at(engram, U1, "core://agent", "Verify every change with the tests before reporting.");
    at(engram, U1, "preferences://user", "Prefers short answers.");
    at(engram, U1, "project://checkout_api", "The checkout API takes payments and refunds.");
    at(engram, U1, "project://checkout_api/webhooks", "Refund webhooks are idempotent by event.id.");
    at(engram, U1, "project://checkout_api/refunds", "Refunds go back to the original payment method.");
    at(engram, U1, "project://checkout_api/refunds/policy", "Refunds over 500 need a second approval.");
    MemoryEntry retired = at(engram, U1, "project://old_thing", "An old fact that no longer holds.");
    engram.retire(U1, retired.citation(), "obsolete");
    write(engram, U1, "A fact without any path.");
    at(engram, U1, "notes/plain", "A path without a domain.");
    at(engram, U2, "project://other_secret", "Another user's project.");

    assertThat(engram.domains(U1)).containsExactly(
        new DomainSummary("core", 1), new DomainSummary("preferences", 1), new DomainSummary("project", 4));
    assertThat(engram.domains(U2)).containsExactly(new DomainSummary("project", 1));
    assertThat(engram.domains(Grants.of("app/user/nobody"))).isEmpty();
  }

  @Test
  void browseListsDirectChildrenAndSubPrefixesWithoutContent() {
    Engram engram = newEngram();
    at(engram, U1, "project://checkout_api", "The checkout API takes payments and refunds.");
    MemoryEntry hooks = at(engram, U1, "project://checkout_api/webhooks", "Refund webhooks are idempotent.");
    MemoryEntry refunds = at(engram, U1, "project://checkout_api/refunds", "Refunds go back to the card.");
    at(engram, U1, "project://checkout_api/refunds/policy", "Refunds over 500 need approval.");
    at(engram, U1, "project://checkout_api/refunds/limits", "Refund limits are per merchant.");
    at(engram, U1, "project://checkout_api/refunds/limits/daily", "At most 20 refunds a day.");
    at(engram, U1, "project://checkout_api_v2", "The next checkout API.");
    at(engram, U1, "project://checkout_api_v2/x", "A sibling project whose name shares the prefix.");
    at(engram, U2, "project://checkout_api", "Someone else's checkout project.");
    at(engram, U2, "project://checkout_api/secret", "Someone else's checkout fact.");

    assertThat(engram.browse(U1, "project://checkout_api/")).containsExactly(
        new PathNode("project://checkout_api/refunds", false, S1, refunds.entryId(), 1),
        new PathNode("project://checkout_api/refunds/", true, null, null, 3),
        new PathNode("project://checkout_api/webhooks", false, S1, hooks.entryId(), 1));
    assertThat(engram.browse(U1, "project://checkout_api"))
        .isEqualTo(engram.browse(U1, "project://checkout_api/"));
    assertThat(engram.browse(U1, "project://")).extracting(PathNode::path)
        .containsExactly("project://checkout_api", "project://checkout_api/", "project://checkout_api_v2",
            "project://checkout_api_v2/");
    assertThat(engram.browse(U1, "project://checkout_api/refunds/limits/")).extracting(PathNode::path)
        .containsExactly("project://checkout_api/refunds/limits/daily");
    assertThat(engram.browse(U2, "project://checkout_api/")).extracting(PathNode::path)
        .containsExactly("project://checkout_api/secret");
    assertThat(engram.browse(U1, "core://")).isEmpty();
  }

  @Test
  void browseSeesCurrentStateNotHistory() {
    Engram engram = newEngram();
    at(engram, U1, "project://p", "The parent node.");
    MemoryEntry a = at(engram, U1, "project://p/a", "First fact.");
    engram.correct(U1, a.entryId(), "First fact, corrected.");
    MemoryEntry b = at(engram, U1, "project://p/b", "Second fact.");
    engram.retire(U1, b.citation(), "gone");
    assertThat(engram.browse(U1, "project://p/")).extracting(PathNode::path, PathNode::entryId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("project://p/a", a.entryId()));
  }

  @Test
  void browseRefusesPrefixesThatAreNotPaths() {
    Engram engram = newEngram();
    for (String bad : new String[] {"", "/", "project:/x", "project://../x", "project://a//b", "PROJECT://",
        "project://a b", "project://a/'; drop table x; --"}) {
      assertThatThrownBy(() -> engram.browse(U1, bad)).as(bad)
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("prefix");
    }
    assertThatThrownBy(() -> engram.browse(U1, null)).isInstanceOf(NullPointerException.class);
  }
}

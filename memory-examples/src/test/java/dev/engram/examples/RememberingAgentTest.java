/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.EntryType;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.PreparedContext;
import dev.engram.SearchMode;
import dev.engram.agent.AgentMemory;
import dev.engram.agent.MemoryResource;
import dev.engram.spi.CurateOp;
import dev.engram.spi.TagProposal;
import dev.engram.test.EngramExtension;
import dev.engram.test.ScriptedReasoner;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** An agent that remembers, tested on a fresh in-memory Engram per test. */
@ExtendWith(EngramExtension.class)
class RememberingAgentTest {
  private static final Grants ALICE = Grants.of("app/user/alice");

  @Test
  void whatTheAgentWritesComesBackAsContext(Engram engram) {
    AgentMemory agent = MemoryResource.builder(engram).build().bind(ALICE);
    assertThat(agent.call("memory_write", "{\"content\":\"Prefers metric units.\"}").isError()).isFalse();

    assertThat(engram.search(ALICE, "metric units").used()).isEqualTo(SearchMode.HYBRID);
    PreparedContext context = engram.prepareContext(ALICE, ContextRequest.of("which units should I use?", 2000));
    assertThat(context.content()).contains("Prefers metric units.");
    assertThat(context.citations()).hasSize(1);
  }

  @Test
  void theModelsFilingAndCurationAreScripted(Engram engram, ScriptedReasoner model) {
    model.onTag(request -> new TagProposal(request.grants().get(0), List.of("health"), EntryType.FACT,
        request.content(), null));
    MemoryEntry allergy = engram.write(ALICE, "Allergic to peanuts.").entry();
    assertThat(allergy.topics()).containsExactly("health");

    model.onCurate("health", new CurateOp.Retire(allergy.entryId(), "outgrown, says the doctor"));
    assertThat(engram.curate(ALICE).applied()).hasSize(1);
    assertThat(engram.read(ALICE, "health")).isEmpty();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import dev.engram.Engram;
import dev.engram.EntryPatch;
import dev.engram.Grants;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import org.junit.jupiter.api.Test;
import dev.engram.tck.Fixtures;

/**
 * The disclosure check: a write or patch whose disclosure is worded with OR or names several situations,
 * or a path entry without one, succeeds, stores what was written, and says so in
 * {@code WriteResult.warnings()}. A plain write without a path needs no disclosure.
 */
class DisclosureTest extends EngineRules {

  private static final Grants U1 = Grants.of(Fixtures.S1);

  private static WriteResult withDisclosure(Engram engram, String content, String disclosure) {
    return engram.write(U1, content, WriteOptions.builder().disclosure(disclosure).build());
  }

  @Test
  void aConcreteDisclosureHasNoWarning() {
    Engram engram = newEngram();
    WriteResult r = withDisclosure(engram, "Refunds are idempotent.", "When changing refund webhooks in checkout-api");
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void aPathEntryWithoutADisclosureSucceedsWithAWarning() {
    Engram engram = newEngram();
    WriteResult r = engram.write(U1, "Refunds are idempotent.", WriteOptions.builder().path("project://shop_refunds").build());
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.warnings()).singleElement().asString().contains("disclosure is missing");
    assertThat(engram.get(U1, r.entry().entryId())).isEqualTo(r.entry());
    assertThat(engram.write(U1, "Refunds are idempotent.", WriteOptions.builder().path("project://shop_refunds").build())
        .warnings()).as("a deduplicated write stores nothing, so there is nothing to warn about").isEmpty();
  }

  @Test
  void aPlainWriteNeedsNoDisclosure() {
    Engram engram = newEngram();
    WriteResult r = write(engram, U1, "A fact without a disclosure.");
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.warnings()).as("only path entries are expected to name when they matter").isEmpty();
    WriteResult patched = engram.update(U1, r.entry().entryId(), EntryPatch.disclosure("When testing or shipping"));
    assertThat(patched.warnings()).as("a disclosure given is still checked").singleElement().asString().contains("OR");
  }

  @Test
  void orWordingAndSeveralSituationsAreWarnedAbout() {
    Engram engram = newEngram();
    WriteResult or = withDisclosure(engram, "Fact one.", "When deploying or rolling back the service");
    assertThat(or.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(or.entry().disclosure()).isEqualTo("When deploying or rolling back the service");
    assertThat(or.warnings()).singleElement().asString().contains("OR");
    assertThat(withDisclosure(engram, "Fact two.", "When deploying / rolling back").warnings())
        .singleElement().asString().contains("OR");
    assertThat(withDisclosure(engram, "Fact three.", "When deploying, and when reviewing migrations").warnings())
        .singleElement().asString().contains("several situations");
    assertThat(withDisclosure(engram, "Fact four.", "When deploying; during incident review").warnings())
        .singleElement().asString().contains("several situations");
    assertThat(withDisclosure(engram, "Fact five.", "When the order form is submitted").warnings())
        .as("'or' inside a word is not OR wording").isEmpty();
  }

  @Test
  void aPatchIsCheckedToo() {
    Engram engram = newEngram();
    WriteResult r = withDisclosure(engram, "A fact.", "When testing patches");
    WriteResult patched = engram.update(U1, r.entry().entryId(), EntryPatch.disclosure("When testing or shipping"));
    assertThat(patched.outcome()).isEqualTo(WriteResult.Outcome.UPDATED);
    assertThat(patched.entry().disclosure()).isEqualTo("When testing or shipping");
    assertThat(patched.warnings()).singleElement().asString().contains("OR");
    assertThat(engram.update(U1, r.entry().entryId(), EntryPatch.disclosure("When shipping")).warnings()).isEmpty();
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.ScopeViolationException;
import dev.engram.TransferReport;
import dev.engram.WriteOptions;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Export / import: lossless between stores, validated before anything is written. */
public abstract class TransferContract extends ContractSupport {
  private static final Grants GRANTS = Grants.of("app/user/u1", "app/user/u2");

  private String populatedExport(Engram source) {
    Grants u1 = Grants.of("app/user/u1");
    MemoryEntry a = write(source, u1, "Prefers metric units.", "preferences").entry();
    source.write(u1, "Runs on Tuesdays.", WriteOptions.builder().topicsHint("schedule", "core").priority(1)
        .disclosure("When planning workouts").glossary("tuesday", "run").path("profile/schedule")
        .source("agent:coach").evidence("chat:42").build());
    MemoryEntry b = source.correct(u1, a.entryId(), "Prefers imperial units.", ChangeOptions.reason("moved").withSource("agent:coach"));
    source.retire(u1, b.citation(), "no longer relevant");
    write(source, Grants.of("app/user/u2"), "Likes green tea; dislikes 'SELECT * FROM x;--'.", "food");
    StringWriter out = new StringWriter();
    TransferReport report = source.export(GRANTS, out);
    assertThat(report.scopes()).containsExactly("app/user/u1", "app/user/u2");
    assertThat(report.versions()).isEqualTo(4);
    return out.toString();
  }

  @Test
  void exportThenImportIntoAFreshStoreIsLossless() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    TransferReport report = target.importFrom(GRANTS, new StringReader(json), ImportOptions.defaults());
    assertThat(report.dryRun()).isFalse();
    assertThat(report.versions()).isEqualTo(4);

    assertThat(everything(target, GRANTS)).isEqualTo(everything(source, GRANTS));
    assertThat(target.scan(GRANTS)).isEqualTo(source.scan(GRANTS));
    Set<String> entryIds = new LinkedHashSet<>();
    everything(source, GRANTS).forEach(e -> entryIds.add(e.entryId()));
    for (String id : entryIds) {
      assertThat(target.history(GRANTS, id)).isEqualTo(source.history(GRANTS, id));
    }
    for (String scope : List.of("app/user/u1", "app/user/u2")) {
      assertThat(target.changes(GRANTS, scope, 0)).isEqualTo(source.changes(GRANTS, scope, 0));
      assertThat(target.revision(GRANTS, scope)).isEqualTo(source.revision(GRANTS, scope));
    }
    assertThat(target.listDirtyTopics()).isEqualTo(source.listDirtyTopics());
  }

  @Test
  void importedMemoryKeepsWorking() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    target.importFrom(GRANTS, new StringReader(json), ImportOptions.defaults());
    Grants u1 = Grants.of("app/user/u1");
    assertThat(write(target, u1, "Runs on Tuesdays.", "schedule").outcome().name()).isEqualTo("DEDUPED");
    assertThat(write(target, u1, "Swims on Fridays.", "schedule").revision())
        .isEqualTo(source.revision(u1, "app/user/u1") + 1);
  }

  @Test
  void dryRunValidatesAndWritesNothing() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    TransferReport report = target.importFrom(GRANTS, new StringReader(json), ImportOptions.validateOnly());
    assertThat(report.dryRun()).isTrue();
    assertThat(report.versions()).isEqualTo(4);
    assertThat(everything(target, GRANTS)).isEmpty();
    assertThat(target.revision(GRANTS, "app/user/u1")).isZero();
  }

  @Test
  void importOutsideTheImportingGrantsIsRejectedWhole() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    assertThatThrownBy(() -> target.importFrom(Grants.of("app/user/u1"), new StringReader(json), ImportOptions.defaults()))
        .isInstanceOf(ScopeViolationException.class)
        .hasMessageContaining("app/user/u2");
    assertThat(everything(target, GRANTS)).isEmpty();
  }

  @Test
  void tamperedRecordsAreRejectedBeforeAnythingIsWritten() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    String tampered = json.replace("Likes green tea", "Likes black tea");
    assertThatThrownBy(() -> target.importFrom(GRANTS, new StringReader(tampered), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("hash does not match");
    assertThat(everything(target, GRANTS)).isEmpty();
    assertThat(target.revision(GRANTS, "app/user/u1")).isZero();
  }

  @Test
  void malformedStreamsAreRejected() {
    Engram target = newEngram();
    assertThatThrownBy(() -> target.importFrom(GRANTS, new StringReader(""), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("empty");
    assertThatThrownBy(() -> target.importFrom(GRANTS, new StringReader("{\"record\":\"other\"}\n"), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("line 1");
    assertThatThrownBy(() -> target.importFrom(GRANTS,
        new StringReader("{\"record\":\"engram-export\",\"format\":1}\n{not json\n"), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("line 2");
    assertThat(everything(target, GRANTS)).isEmpty();
  }

  @Test
  void importIntoANonEmptyScopeIsRejected() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    write(target, Grants.of("app/user/u2"), "Already here.", "food");
    List<MemoryEntry> before = everything(target, GRANTS);
    assertThatThrownBy(() -> target.importFrom(GRANTS, new StringReader(json), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not empty");
    assertThat(everything(target, GRANTS)).isEqualTo(before);
  }
}

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
import dev.engram.reasoner.DeterministicReasoner;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Export / import: lossless between stores, validated before anything is written. One layer: most of it is
 * the table of malformed exports the import must refuse, each a case of its own.
 */
public abstract class TransferContract extends ContractSupport {
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();
  private static final Grants GRANTS = Grants.of("app/user/u1", "app/user/u2");

  private String populatedExport(Engram source) {
    Grants u1 = Grants.of("app/user/u1");
    MemoryEntry a = write(source, u1, "Prefers metric units.", "preferences").entry();
    source.write(u1, "Runs on Tuesdays.", WriteOptions.builder().topicsHint("schedule", "core").priority(1)
        .disclosure("When planning workouts").glossary("tuesday", "run").path("profile/schedule")
        .source("agent:coach").evidence("chat:42").build());
    MemoryEntry b = source.correct(u1, a.entryId(), "Prefers imperial units.", ChangeOptions.builder().reason("moved").source("agent:coach").build());
    source.retire(u1, b.citation(), "no longer relevant");
    write(source, Grants.of("app/user/u2"), "Likes green tea; dislikes 'SELECT * FROM x;--'.", "food");
    StringWriter out = new StringWriter();
    TransferReport report = source.operator().export(GRANTS, out);
    assertThat(report.scopes()).containsExactly("app/user/u1", "app/user/u2");
    assertThat(report.versions()).isEqualTo(4);
    return out.toString();
  }

  @Test
  void exportThenImportIntoAFreshStoreIsLossless() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    TransferReport report = target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.defaults());
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
    assertThat(target.operator().listDirtyTopics()).isEqualTo(source.operator().listDirtyTopics());
  }

  @Test
  void importedMemoryKeepsWorking() {
    Engram source = newEngram();
    String json = populatedExport(source);
    Engram target = newEngram();
    target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.defaults());
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
    TransferReport report = target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.validateOnly());
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
    assertThatThrownBy(() -> target.operator().importFrom(Grants.of("app/user/u1"), new StringReader(json), ImportOptions.defaults()))
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
    assertThatThrownBy(() -> target.operator().importFrom(GRANTS, new StringReader(tampered), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("hash does not match");
    assertThat(everything(target, GRANTS)).isEmpty();
    assertThat(target.revision(GRANTS, "app/user/u1")).isZero();
  }

  @Test
  void malformedStreamsAreRejected() {
    Engram target = newEngram();
    assertThatThrownBy(() -> target.operator().importFrom(GRANTS, new StringReader(""), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("empty");
    assertThatThrownBy(() -> target.operator().importFrom(GRANTS, new StringReader("{\"record\":\"other\"}\n"), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("line 1");
    assertThatThrownBy(() -> target.operator().importFrom(GRANTS,
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
    assertThatThrownBy(() -> target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not empty");
    assertThat(everything(target, GRANTS)).isEqualTo(before);
  }

  // ---- crafted files: each is refused whole, typed, naming what is wrong, and nothing is written

  /** An export as editable JSON records, one per line. */
  private static final class Records {
    final List<ObjectNode> lines = new ArrayList<>();

    Records(String json) {
      for (String line : json.split("\n")) {
        if (!line.isBlank()) {
          try {
            lines.add((ObjectNode) JSON.readTree(line));
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      }
    }

    List<ObjectNode> of(String record, String scope) {
      return lines.stream().filter(n -> n.path("record").asText().equals(record) && n.path("scope").asText().equals(scope)).toList();
    }

    /** Replaces {@code from} by {@code to} in every record of {@code scope}. */
    Records replaceIn(String scope, String from, String to) {
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).path("scope").asText().equals(scope)) {
          String edited = lines.get(i).toString().replace(from, to);
          try {
            lines.set(i, (ObjectNode) JSON.readTree(edited));
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      }
      return this;
    }

    String json() {
      StringBuilder sb = new StringBuilder();
      lines.forEach(n -> sb.append(n).append('\n'));
      return sb.toString();
    }
  }

  private void assertRefusedWhole(Engram target, String json, String... messageParts) {
    assertThatThrownBy(() -> target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContainingAll(messageParts);
    assertThat(everything(target, GRANTS)).isEmpty();
    for (String scope : List.of("app/user/u1", "app/user/u2")) {
      assertThat(target.revision(GRANTS, scope)).isZero();
    }
    assertThat(target.scan(GRANTS)).isEmpty();
  }

  @Test
  void aVersionIdReusedAcrossScopesIsRefusedBeforeAnythingIsWritten() {
    Records r = new Records(populatedExport(newEngram()));
    String u1Version = r.of("version", "app/user/u1").get(0).path("versionId").asText();
    String u2Version = r.of("version", "app/user/u2").get(0).path("versionId").asText();
    String json = r.replaceIn("app/user/u2", u2Version, u1Version).json();
    assertRefusedWhole(newEngram(), json, "versionId", u1Version);
  }

  @Test
  void anEventIdReusedAcrossScopesOrWithinOneIsRefusedBeforeAnythingIsWritten() {
    Records r = new Records(populatedExport(newEngram()));
    List<ObjectNode> u1Events = r.of("event", "app/user/u1");
    String first = u1Events.get(0).path("eventId").asText();
    String u2Event = r.of("event", "app/user/u2").get(0).path("eventId").asText();
    assertRefusedWhole(newEngram(), r.replaceIn("app/user/u2", u2Event, first).json(), "eventId", first);

    Records within = new Records(populatedExport(newEngram()));
    List<ObjectNode> events = within.of("event", "app/user/u1");
    String a = events.get(0).path("eventId").asText();
    events.get(1).put("eventId", a);
    assertRefusedWhole(newEngram(), within.json(), "eventId", a);
  }

  @Test
  void aVersionChainTheEngineCouldNotProduceIsRefused() {
    Records r = new Records(populatedExport(newEngram()));
    ObjectNode v1 = r.of("version", "app/user/u1").stream()
        .filter(n -> n.path("content").asText().equals("Prefers metric units.")).findFirst().orElseThrow();
    ObjectNode v2 = r.of("version", "app/user/u1").stream()
        .filter(n -> n.path("content").asText().equals("Prefers imperial units.")).findFirst().orElseThrow();
    v1.put("status", "ACTIVE");
    v1.putNull("supersededBy");
    v2.put("status", "SUPERSEDED");
    v2.put("supersededBy", v1.path("versionId").asText());
    assertRefusedWhole(newEngram(), r.json(), v1.path("versionId").asText());

    Records dangling = new Records(populatedExport(newEngram()));
    ObjectNode old = dangling.of("version", "app/user/u1").stream()
        .filter(n -> n.path("content").asText().equals("Prefers metric units.")).findFirst().orElseThrow();
    old.put("supersededBy", "nosuchversion");
    assertRefusedWhole(newEngram(), dangling.json(), "supersededBy", "nosuchversion");

    Records headless = new Records(populatedExport(newEngram()));
    ObjectNode lone = headless.of("version", "app/user/u2").get(0);
    lone.put("supersededBy", lone.path("versionId").asText());
    assertRefusedWhole(newEngram(), headless.json(), "supersededBy");
  }

  private String exportWithSwim(Engram source) {
    populatedExport(source);
    write(source, Grants.of("app/user/u1"), "Swims on Fridays.", "schedule");
    StringWriter out = new StringWriter();
    source.operator().export(GRANTS, out);
    return out.toString();
  }

  private static ObjectNode versionWith(Records r, String content) {
    return r.of("version", "app/user/u1").stream()
        .filter(n -> n.path("content").asText().equals(content)).findFirst().orElseThrow();
  }

  @Test
  void twoActiveEntriesWithOnePathOrOneContentInAScopeAreRefused() {
    Records path = new Records(exportWithSwim(newEngram()));
    versionWith(path, "Swims on Fridays.").put("path", "profile/schedule");
    assertRefusedWhole(newEngram(), path.json(), "path", "profile/schedule");

    Records content = new Records(exportWithSwim(newEngram()));
    ObjectNode runs = versionWith(content, "Runs on Tuesdays.");
    ObjectNode swims = versionWith(content, "Swims on Fridays.");
    swims.put("content", runs.path("content").asText());
    swims.put("contentHash", runs.path("contentHash").asText());
    assertRefusedWhole(newEngram(), content.json(), "contentHash");
  }

  @Test
  void moreActiveEntriesThanThePriorityCapAreRefused() {
    Engram source = newEngram();
    Grants u1 = Grants.of("app/user/u1");
    for (int i = 0; i < 3; i++) {
      source.write(u1, "Core fact number " + i + ".", WriteOptions.builder().topicsHint("core").priority(0).build());
    }
    StringWriter out = new StringWriter();
    source.operator().export(GRANTS, out);
    Engram strict = newEngram(new DeterministicReasoner(), b -> b.priorityCaps(2, 10));
    assertRefusedWhole(strict, out.toString(), "priority", "app/user/u1");
    Engram roomy = newEngram(new DeterministicReasoner(), b -> b.priorityCaps(3, 10));
    assertThat(roomy.operator().importFrom(GRANTS, new StringReader(out.toString()), ImportOptions.defaults()).versions()).isEqualTo(3);
  }

  @Test
  void topicStampsBeyondTheScopeRevisionAreRefused() {
    Records r = new Records(populatedExport(newEngram()));
    r.of("topic", "app/user/u1").get(0).put("lastWriteRevision", Long.MAX_VALUE);
    assertRefusedWhole(newEngram(), r.json(), "lastWriteRevision");

    Records curated = new Records(populatedExport(newEngram()));
    curated.of("topic", "app/user/u2").get(0).put("lastCuratedRevision", 99);
    assertRefusedWhole(newEngram(), curated.json(), "lastCuratedRevision");
  }

  @Test
  void eventActorsAndReasonsFollowTheEngineRules() {
    Records esc = new Records(populatedExport(newEngram()));
    esc.of("event", "app/user/u1").get(0).put("actor", "agent\u001b[31m");
    assertRefusedWhole(newEngram(), esc.json(), "actor", "U+001B");

    Records nul = new Records(populatedExport(newEngram()));
    nul.of("event", "app/user/u1").get(0).put("reason", "why\u0000not");
    assertRefusedWhole(newEngram(), nul.json(), "reason", "NUL");

    Records huge = new Records(populatedExport(newEngram()));
    huge.of("event", "app/user/u1").get(0).put("reason", "x".repeat(3_000_000));
    assertRefusedWhole(newEngram(), huge.json(), "reason", "limit");
  }

  @Test
  void changeSetsAndSnapshotsNamingAnotherScopesIdsAreRefused() {
    Records change = new Records(populatedExport(newEngram()));
    String u1Entry = change.of("version", "app/user/u1").get(0).path("entryId").asText();
    String u1Version = change.of("version", "app/user/u1").get(0).path("versionId").asText();
    ObjectNode u2Revision = change.of("revision", "app/user/u2").get(0);
    ObjectNode c = (ObjectNode) u2Revision.get("changes").get(0);
    c.put("entryId", u1Entry);
    c.put("versionId", u1Version);
    assertRefusedWhole(newEngram(), change.json(), "changes", u1Entry);

    Records snapshot = new Records(populatedExport(newEngram()));
    ObjectNode u2Event = snapshot.of("event", "app/user/u2").get(0);
    ObjectNode after = (ObjectNode) u2Event.get("after");
    after.put("versionId", u1Version);
    assertRefusedWhole(newEngram(), snapshot.json(), "event", u1Version);
  }

  @Test
  void aLineIsReadOnlyUpToItsLimit() {
    Engram target = newEngram();
    long endless = 64L * 1024 * 1024;
    java.util.concurrent.atomic.AtomicLong served = new java.util.concurrent.atomic.AtomicLong();
    java.io.Reader in = new java.io.Reader() {
      private final char[] header = "{\"record\":\"engram-export\",\"format\":1}\n".toCharArray();

      @Override
      public int read(char[] buf, int off, int len) {
        long at = served.get();
        if (at >= header.length + endless) {
          return -1;
        }
        int n = (int) Math.min(len, header.length + endless - at);
        for (int k = 0; k < n; k++) {
          long p = at + k;
          buf[off + k] = p < header.length ? header[(int) p] : 'a';
        }
        served.addAndGet(n);
        return n;
      }

      @Override
      public void close() {}
    };
    assertThatThrownBy(() -> target.operator().importFrom(GRANTS, in, ImportOptions.defaults()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContainingAll("line 2", "limit");
    assertThat(served.get()).as("characters read before refusing").isLessThan(5L * 1024 * 1024);
    assertThat(everything(target, GRANTS)).isEmpty();
  }

  @Test
  void aStoreRefusesAnEventIdItAlreadyHolds() {
    dev.engram.spi.MemoryStore store = createStore();
    newEngram(store, new DeterministicReasoner(), b -> b);
    java.time.Instant at = java.time.Instant.parse("2026-01-01T00:00:00Z");
    dev.engram.MemoryEvent first = new dev.engram.MemoryEvent("evdup1", "app/user/u1", "entrydup1", dev.engram.EventKind.CREATE,
        null, null, "agent:a", "first", 1, at, null);
    dev.engram.MemoryEvent again = new dev.engram.MemoryEvent("evdup1", "app/user/u1", "entrydup2", dev.engram.EventKind.CREATE,
        null, null, "agent:b", "second", 1, at, null);
    store.inTransaction("app/user/u1", tx -> {
      tx.appendEvent(first);
      return null;
    });
    assertThatThrownBy(() -> store.inTransaction("app/user/u1", tx -> {
      tx.appendEvent(again);
      return null;
    })).isInstanceOf(RuntimeException.class);
    assertThat(store.event("evdup1")).contains(first);
    assertThat(store.events("entrydup2")).isEmpty();
  }

  // ---- captured sources and cursors

  private static final java.time.Instant T0 = java.time.Instant.parse("2026-03-01T10:00:00Z");

  private dev.engram.spi.MemoryStore sourceStore() {
    dev.engram.spi.MemoryStore store = createStore();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        store.capabilities().contains(dev.engram.spi.StoreCapability.SOURCES), "store does not declare SOURCES");
    return store;
  }

  private static List<dev.engram.SourceRecord> turns(String session, int n) {
    List<dev.engram.SourceRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(dev.engram.SourceRecord.of(session, i % 2 == 0 ? "Ana" : "Ben", "Turn " + i + " of " + session + " about subject" + i)
          .at(T0.plusSeconds(60L * i)).id(session + "-t" + i)
          .metadata(i == 0 ? java.util.Map.of("channel", "web", "lang", "en") : java.util.Map.of()));
    }
    return out;
  }

  /**
   * u1: five turns, two extracted (cursor 2), a sixth captured and erased (last position 6 beyond the
   * highest record); u2: a scope holding only pending sources.
   */
  private String exportWithSources(Engram source) {
    Grants u1 = Grants.of("app/user/u1");
    source.captureAll(u1, turns("a", 5));
    source.flush(u1, dev.engram.FlushOptions.builder().windowRecords(2).maxWindows(1).build());
    source.capture(u1, dev.engram.SourceRecord.of("a", "Ana", "Erased before the export").id("gone"));
    source.deleteSource(u1, "app/user/u1", "gone");
    source.captureAll(Grants.of("app/user/u2"), turns("b", 2));
    StringWriter out = new StringWriter();
    TransferReport report = source.operator().export(GRANTS, out);
    assertThat(report.sources()).isEqualTo(7);
    assertThat(report.scopes()).containsExactly("app/user/u1", "app/user/u2");
    return out.toString();
  }

  @Test
  void sourcesAndCursorsRoundTripAndAFlushAfterTheImportExtractsOnlyWhatWasPending() {
    dev.engram.spi.MemoryStore from = sourceStore();
    Engram source = newEngram(from, new DeterministicReasoner(), b -> b);
    String json = exportWithSources(source);
    dev.engram.spi.MemoryStore to = sourceStore();
    Engram target = newEngram(to, new DeterministicReasoner(), b -> b);

    TransferReport report = target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.defaults());
    assertThat(report.sources()).isEqualTo(7);
    assertThat(target.sources(GRANTS, dev.engram.SourceQuery.defaults()))
        .isEqualTo(source.sources(GRANTS, dev.engram.SourceQuery.defaults()))
        .hasSize(7);
    for (String scope : List.of("app/user/u1", "app/user/u2")) {
      assertThat(to.sourceState(scope)).as(scope).isEqualTo(from.sourceState(scope));
    }
    assertThat(to.sourceState("app/user/u1")).isEqualTo(new dev.engram.spi.SourceState(6, 2));
    assertThat(everything(target, GRANTS)).isEqualTo(everything(source, GRANTS));
    MemoryEntry extracted = everything(target, GRANTS).get(0);
    assertThat(target.evidence(GRANTS, extracted.entryId())).isEqualTo(source.evidence(GRANTS, extracted.entryId()));

    dev.engram.FlushReport flushed = target.flush(GRANTS);
    assertThat(flushed.appended()).as("only the five records after the cursors").isEqualTo(5);
    java.util.Map<String, Integer> cited = new java.util.HashMap<>();
    for (MemoryEntry e : target.list(GRANTS)) {
      e.evidence().forEach(id -> cited.merge(id, 1, Integer::sum));
    }
    assertThat(cited).hasSize(7).allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
    assertThat(target.capture(Grants.of("app/user/u1"), dev.engram.SourceRecord.of("a", "Ana", "After the move"))
        .position()).as("positions are never reused").isEqualTo(7);
  }

  @Test
  void aFaultWhileAScopesSourcesAreRestoredLeavesThatScopeEmpty() {
    String json = exportWithSources(newEngram(sourceStore(), new DeterministicReasoner(), b -> b));
    for (FaultInjectingStore.Step step : List.of(FaultInjectingStore.Step.INSERT_SOURCE,
        FaultInjectingStore.Step.RESTORE_SOURCE_STATE)) {
      FaultInjectingStore store = new FaultInjectingStore(sourceStore());
      Engram target = newEngram(store, new DeterministicReasoner(), b -> b);
      store.failAfter(step);
      assertThatThrownBy(() -> target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.defaults()))
          .as("fault after %s", step).hasMessageContaining("injected fault");
      assertThat(store.faultsInjected()).isEqualTo(1);
      assertThat(everything(target, GRANTS)).as("after %s", step).isEmpty();
      assertThat(target.revision(GRANTS, "app/user/u1")).isZero();
      assertThat(target.sources(GRANTS, dev.engram.SourceQuery.defaults())).isEmpty();
      assertThat(store.sourceState("app/user/u1")).isEqualTo(dev.engram.spi.SourceState.EMPTY);
      TransferReport again = target.operator().importFrom(GRANTS, new StringReader(json), ImportOptions.defaults());
      assertThat(again.sources()).as("a retry after %s", step).isEqualTo(7);
      assertThat(store.sourceState("app/user/u1")).isEqualTo(new dev.engram.spi.SourceState(6, 2));
    }
  }

  @Test
  void anExportOfTheFormatBeforeSourcesStillImports() {
    Engram source = newEngram();
    String json = populatedExport(source);
    String old = json.replaceFirst("\\{\"record\":\"engram-export\",\"format\":\\d+\\}", "{\"record\":\"engram-export\",\"format\":1}");
    assertThat(old).startsWith("{\"record\":\"engram-export\",\"format\":1}");
    Engram target = newEngram();
    TransferReport report = target.operator().importFrom(GRANTS, new StringReader(old), ImportOptions.defaults());
    assertThat(report.versions()).isEqualTo(4);
    assertThat(report.sources()).isZero();
    assertThat(everything(target, GRANTS)).isEqualTo(everything(source, GRANTS));
  }

  private void assertSourcesRefusedWhole(String json, String... messageParts) {
    dev.engram.spi.MemoryStore store = sourceStore();
    Engram target = newEngram(store, new DeterministicReasoner(), b -> b);
    assertRefusedWhole(target, json, messageParts);
    assertThat(target.sources(GRANTS, dev.engram.SourceQuery.defaults())).isEmpty();
    for (String scope : List.of("app/user/u1", "app/user/u2")) {
      assertThat(store.sourceState(scope)).isEqualTo(dev.engram.spi.SourceState.EMPTY);
    }
  }

  private Records sourceRecords() {
    return new Records(exportWithSources(newEngram(sourceStore(), new DeterministicReasoner(), b -> b)));
  }

  @Test
  void importedSourcesAreCheckedAsUntrustedAndABadOneRefusesTheWholeFile() {
    Records id = sourceRecords();
    id.of("source", "app/user/u2").get(0).put("id", "has space");
    assertSourcesRefusedWhole(id.json(), "id", "has space");

    Records twice = sourceRecords();
    List<ObjectNode> u1 = twice.of("source", "app/user/u1");
    u1.get(1).put("id", u1.get(0).path("id").asText());
    assertSourcesRefusedWhole(twice.json(), "appears twice");

    Records position = sourceRecords();
    position.of("source", "app/user/u1").get(4).put("position", 7);
    assertSourcesRefusedWhole(position.json(), "position", "beyond");

    Records samePosition = sourceRecords();
    samePosition.of("source", "app/user/u1").get(1).put("position", 1);
    assertSourcesRefusedWhole(samePosition.json(), "position 1");

    Records cursor = sourceRecords();
    cursor.of("sourceState", "app/user/u1").get(0).put("cursor", 9);
    assertSourcesRefusedWhole(cursor.json(), "cursor");

    Records text = sourceRecords();
    text.of("source", "app/user/u1").get(0).put("text", "  not   normalized ");
    assertSourcesRefusedWhole(text.json(), "text", "normalized");

    Records huge = sourceRecords();
    huge.of("source", "app/user/u1").get(0).put("text", "x".repeat(dev.engram.CapturedSource.MAX_TEXT_BYTES + 1));
    assertSourcesRefusedWhole(huge.json(), "text", "limit");

    Records metadata = sourceRecords();
    ObjectNode m = (ObjectNode) metadata.of("source", "app/user/u1").get(0).get("metadata");
    for (int i = 0; i < dev.engram.CapturedSource.MAX_METADATA; i++) {
      m.put("k" + i, "v");
    }
    assertSourcesRefusedWhole(metadata.json(), "metadata", "limit");

    Records key = sourceRecords();
    ((ObjectNode) key.of("source", "app/user/u1").get(0).get("metadata")).put("bad key", "v");
    assertSourcesRefusedWhole(key.json(), "metadata", "bad key");

    Records time = sourceRecords();
    time.of("source", "app/user/u1").get(0).put("occurredAt", "yesterday");
    assertSourcesRefusedWhole(time.json(), "occurredAt");

    Records stateless = sourceRecords();
    stateless.lines.removeIf(n -> n.path("record").asText().equals("sourceState") && n.path("scope").asText().equals("app/user/u2"));
    assertSourcesRefusedWhole(stateless.json(), "sourceState");

    Records foreign = sourceRecords();
    foreign.of("source", "app/user/u2").get(0).put("scope", "app/user/u3");
    assertSourcesRefusedWhole(foreign.json(), "app/user/u3");

    Records oldFormat = sourceRecords();
    oldFormat.lines.get(0).put("format", 1);
    assertSourcesRefusedWhole(oldFormat.json(), "format 1");
  }

  @Test
  void sourcesOfAScopeOutsideTheImportingGrantsAreRefused() {
    String json = exportWithSources(newEngram(sourceStore(), new DeterministicReasoner(), b -> b));
    dev.engram.spi.MemoryStore store = sourceStore();
    Engram target = newEngram(store, new DeterministicReasoner(), b -> b);
    assertThatThrownBy(() -> target.operator().importFrom(Grants.of("app/user/u1"), new StringReader(json), ImportOptions.defaults()))
        .isInstanceOf(ScopeViolationException.class).hasMessageContaining("app/user/u2");
    assertThat(target.sources(GRANTS, dev.engram.SourceQuery.defaults())).isEmpty();
    assertThat(store.sourceState("app/user/u1")).isEqualTo(dev.engram.spi.SourceState.EMPTY);
  }

  // ---- export under traffic

  @Test
  void exportsTakenWhileWritesContinueAlwaysImport() throws Exception {
    Engram source = newEngram();
    List<Grants> writers = List.of(Grants.of("app/user/u1"), Grants.of("app/user/u2"));
    for (Grants g : writers) {
      for (int i = 0; i < 20; i++) {
        write(source, g, "Seed note " + i + " for " + g.namespaces().get(0) + ".", "notes", "t" + (i % 4));
      }
    }
    // Writers run only while an export runs (a few per round, so the store stays small); the export's
    // first lines go to a slow writer, so each export takes long enough for writes to land during it.
    java.util.concurrent.atomic.AtomicInteger budget = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean exporting = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (Grants g : writers) {
      Thread t = new Thread(() -> {
        int i = 0;
        try {
          while (!stop.get()) {
            if (!exporting.get() || budget.getAndDecrement() <= 0) {
              Thread.sleep(1);
              continue;
            }
            MemoryEntry e = write(source, g, "Traffic note " + i + " in " + g.namespaces().get(0) + ".", "traffic", "t" + (i % 3)).entry();
            if (i % 3 == 1) {
              source.correct(g, e.entryId(), "Traffic note " + i + " corrected.", ChangeOptions.reason("fix"));
            } else if (i % 3 == 2) {
              source.retire(g, source.get(g, e.entryId()).citation(), "done");
            }
            writes.incrementAndGet();
            i++;
            Thread.sleep(2);
          }
        } catch (Throwable ex) {
          failures.add(ex);
        }
      });
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    int exportsWithWritesDuring = 0;
    try {
      for (int round = 0; round < 10; round++) {
        int before = writes.get();
        budget.set(40);
        exporting.set(true);
        while (writes.get() < before + 2 && failures.isEmpty()) {
          Thread.sleep(1);
        }
        int atStart = writes.get();
        StringWriter out = new StringWriter() {
          private int calls;

          @Override
          public void write(String str) {
            if (calls++ < 24) {
              try {
                Thread.sleep(4);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            super.write(str);
          }
        };
        source.operator().export(GRANTS, out);
        if (writes.get() > atStart) {
          exportsWithWritesDuring++;
        }
        exporting.set(false);
        Engram target = newEngram();
        TransferReport report = target.operator().importFrom(GRANTS, new StringReader(out.toString()), ImportOptions.defaults());
        assertThat(report.scopes()).as("round %d", round).containsExactly("app/user/u1", "app/user/u2");
        assertThat(everything(target, GRANTS)).as("round %d", round).hasSize(report.versions());
        for (String scope : List.of("app/user/u1", "app/user/u2")) {
          long rev = target.revision(GRANTS, scope);
          assertThat(rev).as("round %d", round).isGreaterThanOrEqualTo(20);
          assertThat(target.changes(GRANTS, scope, rev - 1)).as("round %d", round).hasSize(1);
        }
      }
    } finally {
      stop.set(true);
      for (Thread t : threads) {
        t.join(30_000);
      }
    }
    assertThat(failures).isEmpty();
    assertThat(exportsWithWritesDuring).as("exports that overlapped writes").isPositive();
  }
}

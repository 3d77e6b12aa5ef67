/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import dev.engram.ChangeOptions;
import dev.engram.Citation;
import dev.engram.ContextRequest;
import dev.engram.DirtyTopic;
import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.EntryStateException;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.ReadOptions;
import dev.engram.Revision;
import dev.engram.RevisionConflictException;
import dev.engram.SearchRequest;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import dev.engram.tck.InputFixture;
import dev.engram.tck.VisibleState;

/**
 * Bad input: every malformed value gets a typed exception whose message names the field and the problem,
 * and nothing already stored changes (no revision is consumed). Engine rules, run once against the
 * reference store.
 */
class BadInputTest extends EngineRules {


  private static final String SQL = "x'; DROP TABLE entries;--";

  /**
   * One bad call: the exception type it must raise, the field the message must name (and
   * {@link InvalidInputException#field()} must start with, when it is one), and the problem it must state.
   *
   * @param name the case's name, shown as the test's name
   * @param type the exception the call must throw
   * @param field the field the message must start with and {@link InvalidInputException#field()} must
   *     equal, or null when none is checked
   * @param problem what the message must contain (for a {@link NullPointerException}: the argument's name)
   * @param call the call, made on a {@link Fixture}
   */
  protected record BadCall(
      String name, Class<? extends Throwable> type, @Nullable String field, String problem, Consumer<InputFixture> call) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static BadCall bad(String name, String field, String problem, Consumer<InputFixture> call) {
    return new BadCall(name, InvalidInputException.class, field, problem, call);
  }

  private static BadCall grant(String name, String field, String problem, Consumer<InputFixture> call) {
    return new BadCall(name, InvalidGrantException.class, field, problem, call);
  }

  private static BadCall nul(String name, String field, Consumer<InputFixture> call) {
    return new BadCall(name, NullPointerException.class, null, field, call);
  }

  private static BadCall notFound(String name, Consumer<InputFixture> call) {
    return new BadCall(name, NotFoundException.class, null, "not found", call);
  }

  private static BadCall noSuchCitation(String name, Consumer<InputFixture> call) {
    return new BadCall(name, NotFoundException.class, null, "no version matches citation", call);
  }

  private static BadCall content(String name, String content, String problem) {
    return bad("write content: " + name, "content", problem, f -> f.engram.write(f.grants, content));
  }

  private static List<String> terms(int n) {
    return IntStream.range(0, n).mapToObj(i -> "term" + i).toList();
  }

  static Stream<BadCall> badCalls() {
    List<BadCall> rows = new ArrayList<>();
    // content
    rows.add(nul("write content: null", "content", f -> f.engram.write(f.grants, null)));
    rows.add(content("empty", "", "empty"));
    rows.add(content("whitespace only", "   ", "empty or only whitespace"));
    rows.add(content("line breaks, tabs and em spaces only", "\n\t \r\n\u2003\u00A0\n", "empty or only whitespace"));
    rows.add(content("8193 ASCII bytes", "x".repeat(8193), "the limit is 8192"));
    rows.add(content("8193 bytes of three-byte characters", "\u20AC".repeat(2731), "the limit is 8192"));
    rows.add(content("8194 bytes of four-byte characters", "\uD83D\uDE00".repeat(2048) + "ab", "the limit is 8192"));
    rows.add(content("100,000 characters", "y".repeat(100_000), "8192"));
    rows.add(content("NUL", "before\u0000after", "NUL"));
    rows.add(content("bell", "ring \u0007 ring", "U+0007"));
    rows.add(content("escape", "\u001B[31mred", "U+001B"));
    rows.add(content("DEL", "delete\u007F", "U+007F"));
    rows.add(content("C1 control", "next\u0085line", "U+0085"));
    rows.add(content("non-character U+FFFF", "odd \uFFFF char", "U+FFFF"));
    rows.add(content("unpaired high surrogate", "a\uD83Db", "unpaired surrogate"));
    rows.add(content("unpaired low surrogate", "a\uDE00b", "unpaired surrogate"));
    rows.add(content("high surrogate at the end", "abc\uD83D", "unpaired surrogate"));
    rows.add(content("surrogates in reverse order", "\uDE00\uD83D", "unpaired surrogate"));
    rows.add(nul("correct content: null", "content", f -> f.engram.correct(f.grants, f.firstId(), null)));
    rows.add(bad("correct content: empty", "content", "empty", f -> f.engram.correct(f.grants, f.firstId(), " \n ")));
    rows.add(bad("correct content: NUL", "content", "NUL", f -> f.engram.correct(f.grants, f.firstId(), "a\u0000")));
    rows.add(bad("correct content: unpaired surrogate", "content", "unpaired surrogate",
        f -> f.engram.correct(f.grants, f.firstId(), "\uD800 alone")));
    rows.add(bad("correct content: oversized", "content", "the limit is 8192",
        f -> f.engram.correct(f.grants, f.firstId(), "z".repeat(9000))));
    // write options
    rows.add(bad("priority -1", "priority", "-1", f -> f.write("p", o -> o.priority(-1))));
    rows.add(bad("priority 100", "priority", "between 0 and 99", f -> f.write("p", o -> o.priority(100))));
    rows.add(bad("write expectedRevision -1", "expectedRevision", "must be >= 0",
        f -> f.write("e", o -> o.expectedRevision(-1))));
    rows.add(bad("correct expectedRevision -1", "expectedRevision", "must be >= 0",
        f -> f.engram.correct(f.grants, f.firstId(), "new", ChangeOptions.expectedRevision(-1))));
    rows.add(bad("retire expectedRevision -1", "expectedRevision", "must be >= 0",
        f -> f.engram.retire(f.grants, f.second.citation(), ChangeOptions.expectedRevision(-5))));
    rows.add(bad("topic with '/'", "topicsHint[0]", "'/'", f -> f.write("t", o -> o.topicsHint("a/b"))));
    rows.add(bad("topic '*'", "topicsHint[1]", "'*'", f -> f.write("t", o -> o.topicsHint("ok", "*"))));
    rows.add(bad("topic empty", "topicsHint[0]", "empty", f -> f.write("t", o -> o.topicsHint(""))));
    rows.add(bad("topic blank", "topicsHint[0]", "empty", f -> f.write("t", o -> o.topicsHint("   "))));
    rows.add(bad("topic of 65 characters", "topicsHint[0]", "the limit is 64",
        f -> f.write("t", o -> o.topicsHint("t".repeat(65)))));
    rows.add(bad("topic with NUL", "topicsHint[0]", "NUL", f -> f.write("t", o -> o.topicsHint("to\u0000pic"))));
    rows.add(bad("topic with a line break", "topicsHint[0]", "U+000A", f -> f.write("t", o -> o.topicsHint("a\nb"))));
    rows.add(bad("17 topics", "topicsHint", "the limit is 16",
        f -> f.write("t", o -> o.topicsHint(IntStream.range(0, 17).mapToObj(i -> "topic" + i).toList()))));
    rows.add(bad("33 glossary terms", "glossary", "the limit is 32", f -> f.write("g", o -> o.glossary(terms(33)))));
    rows.add(bad("blank glossary term", "glossary[1]", "empty", f -> f.write("g", o -> o.glossary("ok", "  "))));
    rows.add(bad("glossary term of 129 characters", "glossary[0]", "the limit is 128",
        f -> f.write("g", o -> o.glossary("g".repeat(129)))));
    rows.add(bad("glossary term with a control character", "glossary[0]", "U+0001",
        f -> f.write("g", o -> o.glossary("a\u0001b"))));
    rows.add(bad("path with '..'", "path", "'..' segment", f -> f.write("p", o -> o.path("a/../b"))));
    rows.add(bad("path with '.'", "path", "'.' segment", f -> f.write("p", o -> o.path("./a"))));
    rows.add(bad("path escaping with '..'", "path", "'..' segment", f -> f.write("p", o -> o.path("../etc/passwd"))));
    rows.add(bad("path with a space", "path", "is not a path", f -> f.write("p", o -> o.path("a b"))));
    rows.add(bad("absolute path", "path", "is not a path", f -> f.write("p", o -> o.path("/abs/path"))));
    rows.add(bad("path with SQL", "path", "is not a path", f -> f.write("p", o -> o.path(SQL))));
    rows.add(bad("path of 257 characters", "path", "the limit is 256", f -> f.write("p", o -> o.path("p".repeat(257)))));
    rows.add(bad("disclosure of 513 characters", "disclosure", "the limit is 512",
        f -> f.write("d", o -> o.disclosure("d".repeat(513)))));
    rows.add(bad("blank disclosure", "disclosure", "empty", f -> f.write("d", o -> o.disclosure(" "))));
    rows.add(bad("source with NUL", "source", "NUL", f -> f.write("s", o -> o.source("agent\u0000"))));
    rows.add(bad("33 evidence references", "evidence", "the limit is 32", f -> f.write("e", o -> o.evidence(terms(33)))));
    rows.add(bad("blank evidence reference", "evidence[0]", "empty", f -> f.write("e", o -> o.evidence(""))));
    rows.add(bad("reason of 1025 characters", "reason", "the limit is 1024",
        f -> f.engram.retire(f.grants, f.second.citation(), "r".repeat(1025))));
    rows.add(bad("source of 257 characters", "source", "the limit is 256",
        f -> f.engram.correct(f.grants, f.firstId(), "new", ChangeOptions.builder().source("s".repeat(257)).build())));
    // grants
    rows.add(grant("grant with '..'", "grants[0]", "'..' segment", f -> f.engram.write(Grants.of("bad/../input"), "g")));
    rows.add(grant("grant with '*'", "grants[0]", "'*'", f -> f.engram.read(Grants.of("bad/*"), "facts")));
    rows.add(grant("grant with leading space", "grants[0]", "whitespace", f -> f.engram.list(Grants.of(" bad/input"))));
    rows.add(grant("grant with '//'", "grants[1]", "'//'", f -> f.engram.scan(Grants.of("bad/input", "bad//input"))));
    rows.add(grant("no grants", "grants", "at least one grant", f -> f.engram.write(Grants.of(List.of()), "g")));
    // ids
    rows.add(bad("get entryId with SQL", "entryId", "not a well-formed id", f -> f.engram.get(f.grants, SQL)));
    rows.add(bad("history entryId with SQL", "entryId", "not a well-formed id", f -> f.engram.history(f.grants, SQL)));
    rows.add(bad("correct entryId with SQL", "entryId", "not a well-formed id", f -> f.engram.correct(f.grants, SQL, "c")));
    rows.add(bad("deleteEntry entryId with SQL", "entryId", "not a well-formed id", f -> f.engram.deleteEntry(f.grants, SQL)));
    rows.add(bad("rollback eventId with SQL", "eventId", "not a well-formed id", f -> f.engram.rollback(f.grants, SQL)));
    rows.add(bad("entryId empty", "entryId", "not a well-formed id", f -> f.engram.get(f.grants, "")));
    rows.add(bad("entryId with NUL", "entryId", "not a well-formed id", f -> f.engram.get(f.grants, "abc\u0000")));
    rows.add(bad("entryId of 65 characters", "entryId", "not a well-formed id", f -> f.engram.get(f.grants, "a".repeat(65))));
    rows.add(bad("entryId with a LIKE wildcard", "entryId", "not a well-formed id", f -> f.engram.get(f.grants, "01%")));
    rows.add(bad("entryId with non-ASCII letters", "entryId", "not a well-formed id",
        f -> f.engram.history(f.grants, "\u00FCn\u00EF")));
    rows.add(nul("entryId null", "entryId", f -> f.engram.get(f.grants, (String) null)));
    rows.add(nul("citation null", "citation", f -> f.engram.get(f.grants, (Citation) null)));
    rows.add(bad("citation versionId with SQL", "citation.versionId", "not a well-formed id",
        f -> f.engram.get(f.grants, f.with(f.second.citation(), null, null, SQL, f.second.citation().revision()))));
    rows.add(bad("citation entryId with a space", "citation.entryId", "not a well-formed id",
        f -> f.engram.retire(f.grants, f.with(f.second.citation(), null, "a b", null, 1), "r")));
    rows.add(grant("citation scope with '..'", "citation.scope", "'..' segment",
        f -> f.engram.get(f.grants, f.with(f.second.citation(), "bad/../input", null, null, 1))));
    // well-formed but unknown or foreign
    rows.add(notFound("get unknown entryId", f -> f.engram.get(f.grants, "unknown-entry")));
    rows.add(notFound("history of unknown entryId", f -> f.engram.history(f.grants, "unknown-entry")));
    rows.add(notFound("correct unknown entryId", f -> f.engram.correct(f.grants, "unknown-entry", "c")));
    rows.add(notFound("deleteEntry unknown entryId", f -> f.engram.deleteEntry(f.grants, "unknown-entry")));
    rows.add(notFound("rollback unknown eventId", f -> f.engram.rollback(f.grants, "unknown-event")));
    rows.add(noSuchCitation("citation with unknown versionId",
        f -> f.engram.get(f.grants, f.with(f.second.citation(), null, null, "unknown-version", 2))));
    rows.add(noSuchCitation("citation of an invisible scope", f -> f.engram.get(f.grants, f.foreign.citation())));
    rows.add(noSuchCitation("citation relabelled to an ancestor scope",
        f -> f.engram.get(f.grants, f.with(f.second.citation(), "bad", null, null, f.second.citation().revision()))));
    rows.add(noSuchCitation("citation relabelled to a visible scope",
        f -> f.engram.get(f.grants, f.with(f.foreign.citation(), "bad/input", null, null, f.foreign.citation().revision()))));
    rows.add(noSuchCitation("citation with another entry's id", f -> f.engram.get(f.grants,
        f.with(f.second.citation(), null, f.firstId(), null, f.second.citation().revision()))));
    rows.add(noSuchCitation("citation with the wrong revision", f -> f.engram.get(f.grants,
        f.with(f.second.citation(), null, null, null, f.second.citation().revision() + 1))));
    rows.add(noSuchCitation("citation of a superseded version with the wrong revision", f -> f.engram.get(f.grants,
        f.with(f.first.citation(), null, null, null, f.firstV2.createdInRevision()))));
    rows.add(noSuchCitation("retire a foreign citation", f -> f.engram.retire(f.auditor, f.with(f.foreign.citation(),
        "bad/input", null, null, f.foreign.citation().revision()), "r")));
    rows.add(notFound("retire with an invisible citation", f -> f.engram.retire(f.grants, f.foreign.citation(), "r")));
    rows.add(noSuchCitation("retire a citation with the wrong revision", f -> f.engram.retire(f.grants,
        f.with(f.second.citation(), null, null, null, f.second.citation().revision() + 7), "r")));
    rows.add(noSuchCitation("retire a citation naming another entry's version", f -> f.engram.retire(f.grants,
        f.with(f.second.citation(), null, null, f.firstV2.versionId(), f.firstV2.createdInRevision()), "r")));
    rows.add(noSuchCitation("reactivate a citation with the wrong revision", f -> f.engram.reactivate(f.grants,
        f.with(f.retired.citation(), null, null, null, f.retired.createdInRevision() + 1), "r")));
    rows.add(notFound("correct a foreign entryId", f -> f.engram.correct(f.grants, f.foreign.entry().entryId(), "c")));
    rows.add(notFound("deleteEntry a foreign entryId", f -> f.engram.deleteEntry(f.grants, f.foreign.entry().entryId())));
    rows.add(notFound("history of a foreign entryId", f -> f.engram.history(f.grants, f.foreign.entry().entryId())));
    // scopes, topics, limits
    rows.add(grant("list scope with '..'", "scope", "'..' segment",
        f -> f.engram.list(f.grants, ListOptions.builder().scope("bad/../input").build())));
    rows.add(grant("list scope with a space", "scope", "whitespace",
        f -> f.engram.list(f.grants, ListOptions.builder().scope("bad input").build())));
    rows.add(notFound("list an invisible scope",
        f -> f.engram.list(f.grants, ListOptions.builder().scope("bad/other").build())));
    rows.add(bad("list topic with '/'", "topic", "'/'",
        f -> f.engram.list(f.grants, ListOptions.builder().topic("a/b").build())));
    rows.add(grant("revision of a malformed scope", "scope", "'..' segment", f -> f.engram.revision(f.grants, "../x")));
    rows.add(notFound("revision of an invisible scope", f -> f.engram.revision(f.grants, "bad/other")));
    rows.add(bad("changes since -1", "sinceRevision", "must be >= 0", f -> f.engram.changes(f.grants, "bad/input", -1)));
    rows.add(grant("deleteScope scope with '*'", "scope", "'*'", f -> f.engram.deleteScope(f.grants, "bad/*", dev.engram.DeleteScopeOptions.withDescendants())));
    rows.add(grant("deleteScope scope empty", "scope", "empty", f -> f.engram.deleteScope(f.grants, "", dev.engram.DeleteScopeOptions.withDescendants())));
    rows.add(bad("read no topics", "topics", "at least one topic", f -> f.engram.read(f.grants, List.of())));
    rows.add(bad("read topic with '/'", "topics[0]", "'/'", f -> f.engram.read(f.grants, "a/b")));
    rows.add(bad("read null topic", "topics[1]", "null", f -> f.engram.read(f.grants, Arrays.asList("facts", null))));
    rows.add(bad("read 65 topics", "topics", "the limit is 64",
        f -> f.engram.read(f.grants, Collections.nCopies(65, "facts"))));
    rows.add(bad("read limit 0", "limit", "between 1 and 1000", f -> f.engram.read(f.grants, "facts", ReadOptions.limit(0))));
    rows.add(bad("listDirtyTopics limit 0", "limit", "between 1 and", f -> f.engram.operator().listDirtyTopics(0)));
    // search and context
    rows.add(bad("search query empty", "query", "empty", f -> f.engram.search(f.grants, "")));
    rows.add(bad("search query blank", "query", "empty", f -> f.engram.search(f.grants, " \t\n ")));
    rows.add(bad("search query with NUL", "query", "NUL", f -> f.engram.search(f.grants, "find\u0000me")));
    rows.add(bad("search query with an unpaired surrogate", "query", "unpaired surrogate",
        f -> f.engram.search(f.grants, "find \uDC00")));
    rows.add(bad("search query of 8193 characters", "query", "the limit is 8192",
        f -> f.engram.search(f.grants, "q".repeat(8193))));
    rows.add(bad("search topic with '/'", "topics[0]", "'/'",
        f -> f.engram.search(f.grants, SearchRequest.builder("fact").topics("a/b").build())));
    rows.add(bad("search limit 0", "limit", "between 1 and 200", f -> f.engram.search(f.grants,
        SearchRequest.builder("fact").limit(0).build())));
    rows.add(bad("context budget below 512 bytes", "maxBytes", "between 512 and",
        f -> f.engram.prepareContext(f.grants, ContextRequest.of("fact", 100))));
    rows.add(bad("context query with NUL", "query", "NUL",
        f -> f.engram.prepareContext(f.grants, ContextRequest.of("fa\u0000ct"))));
    // state and concurrency guards
    rows.add(new BadCall("correct a retired entry", EntryStateException.class, null, "RETIRED",
        f -> f.engram.correct(f.grants, f.retired.entryId(), "revive by correction")));
    rows.add(new BadCall("retire a superseded version", RevisionConflictException.class, null, "current version",
        f -> f.engram.retire(f.grants, f.first.citation(), "stale")));
    rows.add(new BadCall("write with a stale expectedRevision", RevisionConflictException.class, null, "not the expected 1",
        f -> f.write("stale", o -> o.expectedRevision(1))));
    return rows.stream();
  }

  private InputFixture fixture() {
    MemoryStore store = createStore();
    return new InputFixture(newEngram(store, new DeterministicReasoner(), b -> b));
  }

  /** Everything the fixture's auditor can observe, plus the global dirty list. */
  private static List<Object> observe(InputFixture f) {
    List<DirtyTopic> dirty = f.engram.operator().listDirtyTopics();
    return List.of(VisibleState.of(f.engram, f.auditor), dirty);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badCalls")
  void badInputIsRejectedWithATypedErrorAndChangesNothing(BadCall bad) {
    InputFixture f = fixture();
    List<Object> before = observe(f);
    Throwable thrown = catchThrowable(() -> bad.call().accept(f));
    assertThat(thrown).as(bad.name()).isInstanceOf(bad.type());
    assertThat(thrown.getMessage()).as(bad.name()).isNotNull().contains(bad.problem());
    if (bad.field() != null) {
      assertThat(thrown.getMessage()).as(bad.name()).startsWith(bad.field());
      assertThat(((InvalidInputException) thrown).field()).as(bad.name()).isEqualTo(bad.field());
    }
    assertThat(observe(f)).as(bad.name()).isEqualTo(before);
  }

  @Test
  void contentIsMeasuredAfterNormalizationAndTheLimitIsInclusive() {
    InputFixture f = fixture();
    assertThat(f.engram.write(f.grants, "x".repeat(8192)).entry().content()).hasSize(8192);
    String euros = "\u20AC".repeat(2730) + "ab";
    assertThat(f.engram.write(f.grants, euros).entry().content()).isEqualTo(euros);
    assertThat(f.engram.write(f.grants, "  " + "w".repeat(8192) + "   \n\n ").entry().content()).isEqualTo("w".repeat(8192));
    assertThatThrownBy(() -> f.engram.write(f.grants, euros + "c"))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("8193 UTF-8 bytes");
  }

  @Test
  void builderMaxContentBytesAppliesToWritesAndCorrections() {
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.maxContentBytes(100));
    Grants g = Grants.of("small/limit");
    WriteResult ok = engram.write(g, "m".repeat(100));
    assertThat(ok.entry().content()).hasSize(100);
    InputFixture f = new InputFixture(engram);
    List<Object> before = observe(f);
    assertThatThrownBy(() -> engram.write(g, "m".repeat(101)))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("content"))
        .hasMessageContaining("the limit is 100");
    assertThatThrownBy(() -> engram.correct(g, ok.entry().entryId(), "n".repeat(101)))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("the limit is 100");
    assertThat(observe(f)).isEqualTo(before);
    assertThat(engram.get(g, ok.entry().entryId())).isEqualTo(ok.entry());
    for (int badLimit : new int[] {0, 63, (1 << 20) + 1}) {
      EngramBuilder builder = Engram.builder();
      assertThatThrownBy(() -> builder.maxContentBytes(badLimit))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("maxContentBytes");
    }
  }

  @Test
  void rejectedCallsConsumeNoRevisions() {
    InputFixture f = fixture();
    long head = f.engram.revision(f.grants, "bad/input");
    for (String badContent : List.of("", "a\u0000", "\uD800", "x".repeat(9000))) {
      assertThatThrownBy(() -> f.engram.write(f.grants, badContent)).isInstanceOf(InvalidInputException.class);
    }
    assertThatThrownBy(() -> f.engram.write(f.grants, "late", WriteOptions.builder().expectedRevision(0).build()))
        .isInstanceOf(RevisionConflictException.class);
    WriteResult next = f.engram.write(f.grants, "after the failures");
    assertThat(next.revision()).isEqualTo(head + 1);
    assertThat(f.engram.changes(f.grants, "bad/input", 0)).extracting(Revision::revision)
        .containsExactly(LongStream.rangeClosed(1, head + 1).boxed().toArray(Long[]::new));
  }

  @Test
  void historyOfTheFixtureIsIntactAfterEveryKindOfRejection() {
    InputFixture f = fixture();
    List<MemoryEvent> history = f.engram.history(f.grants, f.firstId());
    badCalls().forEach(bad -> catchThrowable(() -> bad.call().accept(f)));
    assertThat(f.engram.history(f.grants, f.firstId())).isEqualTo(history);
    assertThat(f.engram.get(f.grants, f.firstId())).isEqualTo(f.firstV2);
    assertThat(f.engram.get(f.grants, f.first.citation()).content()).isEqualTo("the first fact");
  }
}

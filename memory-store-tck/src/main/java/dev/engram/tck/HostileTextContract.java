/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile-looking text that is valid (SQL, LIKE and full-text syntax, quotes) is data: stored and read
 * back verbatim, searchable as text, and a LIKE wildcard in a topic matches only itself. A store breaks
 * this by splicing text into SQL or into a full-text query; rejecting malformed input is the engine's.
 */
public abstract class HostileTextContract extends ContractSupport {

  private static final String SQL = "x'; DROP TABLE entries;--";

  private boolean fullText;

  private InputFixture fixture() {
    MemoryStore store = createStore();
    fullText = store.capabilities().contains(StoreCapability.FULL_TEXT_SEARCH);
    return new InputFixture(newEngram(store, new DeterministicReasoner(), b -> b));
  }

  static Stream<String> hostileButValidContent() {
    return Stream.of(
        SQL,
        "Robert'); DROP TABLE students;--",
        "1' OR '1'='1",
        "\"double\" 'single' `backtick` [bracket]",
        "100% of a_b LIKE 'a%' ESCAPE '\\' and \\\\ backslashes",
        "$1 $$dollar quoted$$ ? :name @param",
        "NEAR(alpha beta) OR \"exact phrase\" AND -minus* title:col ^boost",
        "{\"json\": [1, 2, {\"nested\": null}]}",
        "<script>alert('x')</script> &amp; &#0;",
        "/* comment */ -- line comment\n; semicolon; COMMIT; ROLLBACK;",
        "tabs\tand\nnew lines\nstay",
        "\uD83D\uDE00 emoji, \u6F22\u5B57, \u00FCml\u00E4ut, \u0645\u0631\u062D\u0628\u0627, \u05E9\u05DC\u05D5\u05DD");
  }

  @ParameterizedTest
  @MethodSource("hostileButValidContent")
  void hostileLookingContentIsStoredAndReadBackVerbatim(String content) {
    InputFixture f = fixture();
    String expected = content.replace("\t", " ");
    WriteResult r = f.engram.write(f.grants, content, WriteOptions.builder().topicsHint("hostile").build());
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.entry().content()).isEqualTo(expected);
    assertThat(f.engram.get(f.grants, r.entry().entryId()).content()).isEqualTo(expected);
    assertThat(f.engram.get(f.grants, r.citation()).content()).isEqualTo(expected);
    assertThat(f.engram.read(f.grants, "hostile")).extracting(MemoryEntry::content).containsExactly(expected);
    assertThat(f.engram.list(f.grants, ListOptions.builder().topic("hostile").build()))
        .extracting(MemoryEntry::content).containsExactly(expected);
    assertThat(f.engram.history(f.grants, r.entry().entryId())).singleElement()
        .extracting(e -> e.after().content()).isEqualTo(expected);
    if (fullText) {
      assertThat(f.engram.search(f.grants, SearchRequest.builder(content).mode(SearchMode.FTS).build()).hits())
          .extracting(h -> h.entry().entryId()).contains(r.entry().entryId());
    }
    assertThat(f.engram.write(f.grants, content).outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
    MemoryEntry corrected = f.engram.correct(f.grants, r.entry().entryId(), expected + " (again)");
    assertThat(f.engram.get(f.grants, corrected.citation()).content()).isEqualTo(expected + " (again)");
    assertThat(f.engram.get(f.grants, r.citation()).content()).isEqualTo(expected);
    assertThat(f.engram.list(f.grants)).extracting(MemoryEntry::content)
        .contains("the first fact, corrected", "the second fact");
  }

  @Test
  void hostileLookingTopicsGlossarySourceAndEvidenceAreData() {
    InputFixture f = fixture();
    String topic = "o'brien\"; drop table topics;--";
    WriteResult r = f.engram.write(f.grants, "metadata with quotes", WriteOptions.builder()
        .topicsHint(topic.toUpperCase(java.util.Locale.ROOT), "100%")
        .glossary("it's", "50% off", "a_b")
        .source("agent'); DELETE FROM events;--")
        .evidence("file:///tmp/x?y='1'", SQL)
        .disclosure("when someone says 'DROP'")
        .build());
    MemoryEntry stored = f.engram.get(f.grants, r.entry().entryId());
    assertThat(stored.topics()).containsExactly(topic, "100%");
    assertThat(stored.glossary()).containsExactly("it's", "50% off", "a_b");
    assertThat(stored.source()).isEqualTo("agent'); DELETE FROM events;--");
    assertThat(stored.evidence()).containsExactly("file:///tmp/x?y='1'", SQL);
    assertThat(stored.disclosure()).isEqualTo("when someone says 'DROP'");
    assertThat(f.engram.read(f.grants, topic)).extracting(MemoryEntry::entryId).containsExactly(stored.entryId());
    assertThat(f.engram.scan(f.grants)).extracting(TopicSummary::topic).contains(topic, "100%");
    assertThat(f.engram.list(f.grants)).hasSize(3);
  }

  @Test
  void likeWildcardsInTopicsMatchOnlyThemselves() {
    InputFixture f = fixture();
    f.write("percent topic", o -> o.topicsHint("a%"));
    f.write("underscore topic", o -> o.topicsHint("a_c"));
    f.write("plain topic", o -> o.topicsHint("abc"));
    assertThat(f.engram.read(f.grants, "a%")).extracting(MemoryEntry::content).containsExactly("percent topic");
    assertThat(f.engram.read(f.grants, "a_c")).extracting(MemoryEntry::content).containsExactly("underscore topic");
    assertThat(f.engram.read(f.grants, "ab")).isEmpty();
    assertThat(f.engram.list(f.grants, ListOptions.builder().topic("a_c").build()))
        .extracting(MemoryEntry::content).containsExactly("underscore topic");
  }
}

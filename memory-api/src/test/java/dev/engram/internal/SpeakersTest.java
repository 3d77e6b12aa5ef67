/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.SearchChannel;
import dev.engram.SearchHit;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpeakersTest {
  private static SearchHit hit(String content) {
    Instant at = Instant.parse("2024-01-01T00:00:00Z");
    MemoryEntry e = new MemoryEntry("e-" + content.hashCode(), "v-" + content.hashCode(), 1, null, "app", content,
        List.of("conversation"), EntryType.EVENT, 2, null, List.of(), null, null, List.of(), Text.contentHash(content),
        EntryStatus.ACTIVE, null, at, at, at, 1);
    return new SearchHit(e, 1, EnumSet.of(SearchChannel.FTS), 1, null, null);
  }

  private static final List<SearchHit> HITS = List.of(
      hit("Fahim Khan: I went for a run after the rain."),
      hit("Muhhamed: I had to cancel, I was sick."),
      hit("A note without a speaker, about running."),
      hit("Too long a prefix to be anybody's name at all here: text"));

  @Test
  void aSpeakerIsTheShortNameBeforeTheColon() {
    assertThat(Speakers.of(HITS.get(0).entry())).isEqualTo("Fahim Khan");
    assertThat(Speakers.of(HITS.get(2).entry())).isNull();
    assertThat(Speakers.of(HITS.get(3).entry())).isNull();
    assertThat(Speakers.of(hit("https://example.com: a link").entry())).isNull();
  }

  @Test
  void aQueryNamesASpeakerByAWordOfTheNameOrANearSpellingOfIt() {
    assertThat(Speakers.named("When did Fahim go for a run?", HITS)).containsExactly("Fahim Khan");
    assertThat(Speakers.named("what did khan say", HITS)).containsExactly("Fahim Khan");
    // heard, not read: a capitalised near spelling names the speaker
    assertThat(Speakers.named("When did Muhammad cancel his plans?", HITS)).containsExactly("Muhhamed");
    // a lowercase word spelled like a name is an ordinary word, and unrelated names name nobody
    assertThat(Speakers.named("when did muhammad cancel", HITS)).isEmpty();
    assertThat(Speakers.named("What did Paola cook?", HITS)).isEmpty();
  }

  @Test
  void jaroWinklerIsOneForEqualWordsAndHighForNearSpellings() {
    assertThat(Speakers.jaroWinkler("nicolas", "nicolas")).isEqualTo(1.0);
    assertThat(Speakers.jaroWinkler("nikolas", "nicolas")).isGreaterThanOrEqualTo(Speakers.NEAR_SPELLING);
    assertThat(Speakers.jaroWinkler("garden", "nicolas")).isLessThan(Speakers.NEAR_SPELLING);
  }
}

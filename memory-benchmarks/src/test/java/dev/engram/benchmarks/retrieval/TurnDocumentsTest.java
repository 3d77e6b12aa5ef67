/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.benchmarks.retrieval.LocomoFile.Conversation;
import dev.engram.benchmarks.retrieval.LocomoFile.Question;
import dev.engram.benchmarks.retrieval.LocomoFile.Session;
import dev.engram.benchmarks.retrieval.LocomoFile.Turn;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnDocumentsTest {
  private static final String LONG = "I finally finished the marathon training plan this week. My knees hurt a little after "
      + "the long run on Sunday, so I am resting. Next month I want to try a trail race in the mountains near "
      + "my aunt's cabin! The registration opens on Friday and I already saved the date in my calendar. "
      + "Do you want to come along and cheer?";

  private static Conversation conversation() {
    Session s = new Session(1, "29.12.2023, 00:51:12", List.of(
        new Turn("D1:1", "Muhhamed", "How was your week?", null),
        new Turn("D1:2", "Fahim Khan", LONG, null),
        new Turn("D1:3", "Muhhamed", "Sounds great, good luck!", "a photo of running shoes")));
    return new Conversation("c1", List.of(s), List.of(new Question("c1#0", 0, "What did Muhammad say?", 2)));
  }

  @Test
  void contentIsTheTurnAsSaidAndTheDiaIdIsTheEvidence() {
    List<TurnDocuments.Doc> docs = new TurnDocuments(true, TurnDocuments.Date.DISCLOSURE, 1, 1,
        TurnDocuments.Context.VIEW, true).docs(conversation());
    assertThat(docs).extracting(TurnDocuments.Doc::diaId).containsExactly("D1:1", "D1:2", "D1:3");
    assertThat(docs.get(0).content()).isEqualTo("Muhhamed: How was your week?");
    assertThat(docs.get(2).content()).isEqualTo("Muhhamed: Sounds great, good luck! [shares a photo of running shoes]");
    assertThat(docs.get(1).path()).isEqualTo("turn/D1.2");
    assertThat(docs.get(1).options().evidence()).containsExactly("D1:2");
    assertThat(docs.get(1).disclosure()).isEqualTo("29 December 2023 2023-12-29");
  }

  @Test
  void viewsAreTheFirstSentenceTheExchangeAndTheRestInChunks() {
    List<TurnDocuments.Doc> docs = new TurnDocuments(false, TurnDocuments.Date.OFF, 1, 1,
        TurnDocuments.Context.VIEW, true).docs(conversation());
    TurnDocuments.Doc doc = docs.get(1);
    assertThat(doc.views().gist()).isEqualTo("Fahim Khan: I finally finished the marathon training plan this week.");
    List<String> views = doc.views().questions();
    assertThat(views).hasSize(3);
    assertThat(views.get(0)).startsWith("Muhhamed: How was your week? Fahim Khan: I finally").endsWith("…")
        .hasSizeLessThanOrEqualTo(TurnDocuments.MAX_VIEW_CHARS);
    assertThat(views.get(1)).startsWith("Fahim Khan: My knees hurt").hasSizeLessThanOrEqualTo(TurnDocuments.MAX_VIEW_CHARS);
    assertThat(views.get(2)).startsWith("Fahim Khan: ");
    assertThat(doc.disclosure()).isNull();

    TurnDocuments.Doc plain = new TurnDocuments(false, TurnDocuments.Date.OFF, 1, 1, TurnDocuments.Context.NONE, false)
        .docs(conversation()).get(0);
    assertThat(plain.views().gist()).isEqualTo("Muhhamed: How was your week?");
    assertThat(plain.views().questions()).isEmpty();
  }

  @Test
  void contextCanGoIntoTheDisclosure() {
    TurnDocuments.Doc doc = new TurnDocuments(false, TurnDocuments.Date.OFF, 1, 1, TurnDocuments.Context.DISCLOSURE,
        false).docs(conversation()).get(0);
    assertThat(doc.disclosure()).isEqualTo("Fahim Khan: " + LONG);
  }

  @Test
  void sessionDatesAreReadInTheCommonLayouts() {
    assertThat(SessionDates.parse("29.12.2023, 00:51:12")).isEqualTo(LocalDate.of(2023, 12, 29));
    assertThat(SessionDates.parse("1:56 pm on 8 May, 2023")).isEqualTo(LocalDate.of(2023, 5, 8));
    assertThat(SessionDates.parse("2023-05-08T10:00")).isEqualTo(LocalDate.of(2023, 5, 8));
    assertThat(SessionDates.parse("Sept 3rd, 2024")).isEqualTo(LocalDate.of(2024, 9, 3));
    assertThat(SessionDates.parse("yesterday")).isNull();
    assertThat(SessionDates.words("1:56 pm on 8 May, 2023")).isEqualTo("8 May 2023 2023-05-08");
  }

  @Test
  void queriesGetParticipantNamesSpelledAsTheConversationSpellsThem() {
    QueryCleaner cleaner = new QueryCleaner(conversation());
    assertThat(cleaner.clean("What  did Muhammad's friend\nFaheem run?")).isEqualTo("What did Muhhamed's friend Fahim run?");
    assertThat(cleaner.clean("Did Fahim like the marathon?")).isEqualTo("Did Fahim like the marathon?");
    assertThat(cleaner.clean("Where is Kate?")).isEqualTo("Where is Kate?");
  }
}

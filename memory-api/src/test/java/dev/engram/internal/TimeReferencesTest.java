/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimeReferencesTest {
  /** Wednesday 2024-01-17, 15:30 UTC. */
  private static final Instant REF = Instant.parse("2024-01-17T15:30:00Z");

  private static Instant day(String iso) {
    return LocalDate.parse(iso).atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // absolute days
      "What did Kate make on 2023-12-29?                    | 2023-12-29 | 2023-12-30",
      "What book did Fahim finish on 02.01.2024?            | 2024-01-02 | 2024-01-03",
      "Where was he on 01/05/2024?                          | 2024-01-05 | 2024-01-06",
      "Where was he on 25/01/2024?                          | 2024-01-25 | 2024-01-26",
      "What kind of pasta did Kate make on 29 Dec 2023?     | 2023-12-29 | 2023-12-30",
      "What happened on the 17th of January, 2024 with a cat? | 2024-01-17 | 2024-01-18",
      "How many naps on January 6 2024?                     | 2024-01-06 | 2024-01-07",
      "What movie on December 31st, 2023?                   | 2023-12-31 | 2024-01-01",
      "What did Elise buy on 7 Sept. 2023?                  | 2023-09-07 | 2023-09-08",
      // months and years
      "When Akib went on a hike in January 2024?            | 2024-01-01 | 2024-02-01",
      "What did she do in May of 2023?                      | 2023-05-01 | 2023-06-01",
      "What football match did Kevin watch in 2017?         | 2017-01-01 | 2018-01-01",
      "What books did Fahim start to read in January?       | 2024-01-01 | 2024-02-01",
      "What did they do in May?                             | 2023-05-01 | 2023-06-01",
      // relative to the reference day (Wednesday 17 January 2024)
      "What did Paola do yesterday?                         | 2024-01-16 | 2024-01-17",
      "What did Paola do today?                             | 2024-01-17 | 2024-01-18",
      "And the day before yesterday?                        | 2024-01-15 | 2024-01-16",
      "What did Paola do last week?                         | 2024-01-08 | 2024-01-15",
      "What did Paola do this week?                         | 2024-01-15 | 2024-01-22",
      "Where did they go last weekend?                      | 2024-01-13 | 2024-01-15",
      "What happened last month?                            | 2023-12-01 | 2024-01-01",
      "For how long blood moon phenomenon lasted last year? | 2023-01-01 | 2024-01-01",
      "What did he cook 3 days ago?                         | 2024-01-14 | 2024-01-15",
      "What did he cook two weeks ago?                      | 2024-01-01 | 2024-01-08",
      "What did he buy a month ago?                         | 2023-12-01 | 2024-01-01",
      "Which trip was five years ago?                       | 2019-01-01 | 2020-01-01",
      "What did Paola make on Friday?                       | 2024-01-12 | 2024-01-13",
      "What did Paola make last Wednesday?                  | 2024-01-10 | 2024-01-11",
      "What did she do on 5 January?                        | 2024-01-05 | 2024-01-06",
      "What did she do on December 24th?                    | 2023-12-24 | 2023-12-25",
      // before / after
      "What TV show was Kate watching shortly before 7 Jan 2024? | 2023-12-31 | 2024-01-07",
      "Did she call after 3 Jan 2024?                       | 2024-01-04 | 2024-01-11",
      "What changed since May 2023?                         | 2023-06-01 | 2023-07-02",
  })
  void findsTheReferencedInterval(String query, String from, String to) {
    Optional<TimeReferences.Interval> found = TimeReferences.find(query, REF);
    assertThat(found).contains(new TimeReferences.Interval(day(from), day(to)));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "What does Kate like to cook?",
      "Did she feel lonely recently?",
      "What did Elise play in the winter?",
      "How many of the 12 cats were adopted?",
      "What is on 31.02.2024?", // no such day
      "He called 1000 times",
      "It may rain, said March",
  })
  void findsNoneWhereNoTimeIsReferred(String query) {
    assertThat(TimeReferences.find(query, REF)).isEmpty();
  }

  @Test
  void theMostSpecificFormWins() {
    // a full date beats the bare year and the weekday in the same question
    assertThat(TimeReferences.find("What did Paola make on Friday before 10.01.2024 in 2024?", REF))
        .contains(new TimeReferences.Interval(day("2024-01-03"), day("2024-01-10")));
  }

  @Test
  void theDefaultLocaleAndZoneDoNotMatter() {
    Locale locale = Locale.getDefault();
    TimeZone zone = TimeZone.getDefault();
    try {
      Locale.setDefault(new Locale("tr", "TR")); // dotless i in toUpperCase/toLowerCase
      TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Kiritimati"));
      assertThat(TimeReferences.find("WHAT DID SHE DO ON FRIDAY IN DECEMBER?", REF))
          .contains(new TimeReferences.Interval(day("2024-01-12"), day("2024-01-13")));
      assertThat(TimeReferences.find("What did Paola do yesterday?", REF))
          .contains(new TimeReferences.Interval(day("2024-01-16"), day("2024-01-17")));
    } finally {
      Locale.setDefault(locale);
      TimeZone.setDefault(zone);
    }
  }

  @Test
  void intervalsAreHalfOpen() {
    TimeReferences.Interval i = new TimeReferences.Interval(day("2024-01-16"), day("2024-01-17"));
    assertThat(i.contains(day("2024-01-16"))).isTrue();
    assertThat(i.contains(day("2024-01-17").minusNanos(1))).isTrue();
    assertThat(i.contains(day("2024-01-17"))).isFalse();
    assertThat(i.contains(day("2024-01-16").minusNanos(1))).isFalse();
  }
}

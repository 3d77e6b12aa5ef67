/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import dev.engram.SourceRecord;
import dev.engram.benchmarks.retrieval.LocomoFile.Conversation;
import dev.engram.benchmarks.retrieval.LocomoFile.Session;
import dev.engram.benchmarks.retrieval.LocomoFile.Turn;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A conversation file as an application would capture it: one {@link SourceRecord} per turn, its dia_id
 * as the record's id, the session as its session, the speaker as said, the text (with {@code " [shares
 * <caption>]"} when the turn shares an image and captions are on), and the session's date as the event
 * time. Turns without text or caption are not captured. Everything else (content form, date words,
 * context views) is the library's own extraction.
 */
final class TurnSources {
  private TurnSources() {}

  /**
   * The "now" of the conversation's questions: the end of the day of its last dated session (the data
   * dates sessions, not questions, and the questions are asked after the conversation); null when no
   * session has a date.
   *
   * @param conversation the conversation
   * @return the reference time, or null
   */
  static java.time.@Nullable Instant referenceTime(Conversation conversation) {
    LocalDate last = null;
    for (Session session : conversation.sessions()) {
      LocalDate day = SessionDates.parse(session.dateTime());
      if (day != null && (last == null || day.isAfter(last))) {
        last = day;
      }
    }
    return last == null ? null : last.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  static List<SourceRecord> records(Conversation conversation, boolean captions) {
    List<SourceRecord> out = new ArrayList<>(conversation.turnCount());
    for (Session session : conversation.sessions()) {
      LocalDate day = SessionDates.parse(session.dateTime());
      for (Turn t : session.turns()) {
        String text = t.text().strip();
        if (captions && t.caption() != null && !t.caption().isBlank()) {
          text = (text + " [shares " + t.caption().strip() + "]").strip();
        }
        if (text.isEmpty()) {
          continue;
        }
        SourceRecord r = SourceRecord.of("session_" + session.number(), t.speaker().strip(), text).id(t.diaId().strip());
        out.add(day == null ? r : r.at(day.atStartOfDay(ZoneOffset.UTC).toInstant()));
      }
    }
    return out;
  }
}

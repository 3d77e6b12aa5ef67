/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads the date of a session as conversation files write it ({@code "29.12.2023, 00:51:12"}, {@code
 * "1:56 pm on 8 May, 2023"}, {@code "2023-05-08"}, {@code "May 8, 2023"}) and spells it in the forms
 * people type: {@code "8 May 2023 2023-05-08"}, which a full-text index splits into the day, the month
 * name, the year and the numeric month.
 */
final class SessionDates {
  private static final String MONTH =
      "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
  private static final Pattern ISO = Pattern.compile("(?<!\\d)(\\d{4})-(\\d{1,2})-(\\d{1,2})(?!\\d)");
  private static final Pattern DOTTED = Pattern.compile("(?<!\\d)(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})(?!\\d)");
  private static final Pattern SLASHED = Pattern.compile("(?<!\\d)(\\d{1,2})/(\\d{1,2})/(\\d{4})(?!\\d)");
  private static final Pattern DAY_MONTH = Pattern.compile(
      "\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?" + MONTH + "\\.?,?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_DAY = Pattern.compile(
      "\\b" + MONTH + "\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);

  private SessionDates() {}

  /** The date spelled out, or null when {@code raw} holds no date this class reads. */
  static @Nullable String words(String raw) {
    LocalDate d = parse(raw);
    if (d == null) {
      return null;
    }
    String month = d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    return d.getDayOfMonth() + " " + month + " " + d.getYear() + " " + d;
  }

  static @Nullable LocalDate parse(String raw) {
    Matcher m = ISO.matcher(raw);
    if (m.find()) {
      return date(m.group(1), m.group(2), m.group(3));
    }
    m = DOTTED.matcher(raw);
    if (m.find()) {
      return date(m.group(3), m.group(2), m.group(1));
    }
    m = SLASHED.matcher(raw);
    if (m.find()) {
      boolean dayFirst = Integer.parseInt(m.group(1)) > 12;
      return dayFirst ? date(m.group(3), m.group(2), m.group(1)) : date(m.group(3), m.group(1), m.group(2));
    }
    m = DAY_MONTH.matcher(raw);
    if (m.find()) {
      return date(m.group(3), String.valueOf(month(m.group(2))), m.group(1));
    }
    m = MONTH_DAY.matcher(raw);
    if (m.find()) {
      return date(m.group(3), String.valueOf(month(m.group(1))), m.group(2));
    }
    return null;
  }

  private static int month(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    String[] prefixes = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    for (int i = 0; i < prefixes.length; i++) {
      if (n.startsWith(prefixes[i])) {
        return i + 1;
      }
    }
    return 0;
  }

  private static @Nullable LocalDate date(String year, String month, String day) {
    try {
      return LocalDate.of(Integer.parseInt(year), Integer.parseInt(month), Integer.parseInt(day));
    } catch (DateTimeException | NumberFormatException e) {
      return null;
    }
  }
}

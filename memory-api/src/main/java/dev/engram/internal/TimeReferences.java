/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the time a query refers to ("yesterday", "last week", "3 days ago", "in May 2023",
 * "on 29 Dec 2023", "2024-01-05", "in 2023", "on Friday", …) and turns it into a half-open interval of
 * UTC days, relative to a reference time. English only; matching ignores case and does not depend on the
 * JVM's default locale or time zone (days are UTC days).
 *
 * <p>Recognised, most specific first (the first form found wins):
 * <ol>
 *   <li>a day with its year: ISO {@code 2024-01-05}; dotted {@code 05.01.2024} (day.month.year);
 *       slashed {@code 01/05/2024} (month/day/year, the English convention, or day/month/year when the
 *       first number is above 12); {@code 5 Jan 2024}, {@code 5th of January, 2024},
 *       {@code January 5th, 2024} (month names in full or as three-letter abbreviations);
 *   <li>a month with its year: {@code May 2023}, {@code May of 2023};
 *   <li>relative days: {@code today}, {@code yesterday}, {@code the day before yesterday},
 *       {@code N days ago} (N as digits or a word from one to twelve, {@code a} for one);
 *   <li>relative weeks, months and years: {@code this|last week} (weeks start on Monday),
 *       {@code last weekend}, {@code this|last month}, {@code this|last year}, {@code N weeks|months|years ago}
 *       (the calendar week, month or year N back);
 *   <li>a day without a year: {@code 5 January}, {@code January 5th}: its latest occurrence on or before the
 *       reference day;
 *   <li>a weekday: {@code Friday}, {@code last Friday}, {@code on Friday}: the latest such day before the
 *       reference day;
 *   <li>a month without a year: {@code in May}: the latest May that began on or before the reference day;
 *   <li>a year: {@code in 2023}, or any standalone year from 1900 to 2099.
 * </ol>
 * A form preceded by {@code before} becomes the stretch just before it (seven days, or the form's own
 * length when longer); one preceded by {@code after} or {@code since} the stretch just after it.
 * Everything else (a bare "recently", seasons, "a few years ago") refers to no time.
 */
final class TimeReferences {
  /** A half-open interval {@code [from, to)}. */
  record Interval(Instant from, Instant to) {
    boolean contains(Instant t) {
      return !t.isBefore(from) && t.isBefore(to);
    }
  }

  private static final String MONTH =
      "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          + "|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
  private static final String ORD = "(\\d{1,2})(?:st|nd|rd|th)?";
  private static final String YEAR = "((?:19|20)\\d{2})";
  private static final String COUNT = "(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
  private static final String WEEKDAY = "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
  private static final int F = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

  private static final Pattern ISO = Pattern.compile("\\b" + YEAR + "-(\\d{2})-(\\d{2})\\b");
  private static final Pattern DOTTED = Pattern.compile("\\b(\\d{1,2})\\.(\\d{1,2})\\." + YEAR + "\\b");
  private static final Pattern SLASHED = Pattern.compile("\\b(\\d{1,2})/(\\d{1,2})/" + YEAR + "\\b");
  private static final Pattern DAY_MONTH_YEAR =
      Pattern.compile("\\b(?:the\\s+)?" + ORD + "(?:\\s+of)?\\s+" + MONTH + ",?\\s+" + YEAR + "\\b", F);
  private static final Pattern MONTH_DAY_YEAR =
      Pattern.compile("\\b" + MONTH + "\\s+(?:the\\s+)?" + ORD + ",?\\s+" + YEAR + "\\b", F);
  private static final Pattern MONTH_YEAR = Pattern.compile("\\b" + MONTH + ",?\\s+(?:of\\s+)?" + YEAR + "\\b", F);
  private static final Pattern DAY_BEFORE_YESTERDAY = Pattern.compile("\\bthe\\s+day\\s+before\\s+yesterday\\b", F);
  private static final Pattern YESTERDAY = Pattern.compile("\\byesterday\\b", F);
  private static final Pattern TODAY = Pattern.compile("\\btoday\\b", F);
  private static final Pattern AGO =
      Pattern.compile("\\b" + COUNT + "\\s+(day|week|month|year)s?\\s+ago\\b", F);
  private static final Pattern LAST_WEEKEND = Pattern.compile("\\b(?:last|this\\s+past)\\s+weekend\\b", F);
  private static final Pattern THIS_LAST = Pattern.compile("\\b(this|last|past|previous)\\s+(week|month|year)\\b", F);
  private static final Pattern DAY_MONTH =
      Pattern.compile("\\b(?:the\\s+)?" + ORD + "(?:\\s+of)?\\s+" + MONTH + "(?![\\w.])", F);
  private static final Pattern MONTH_DAY = Pattern.compile("\\b" + MONTH + "\\s+(?:the\\s+)?" + ORD + "\\b(?!:)", F);
  private static final Pattern ON_WEEKDAY = Pattern.compile("\\b" + WEEKDAY + "\\b", F);
  private static final Pattern IN_MONTH = Pattern.compile("\\b(?:in|during|of|early|late)\\s+" + MONTH + "(?![\\w.])", F);
  private static final Pattern A_YEAR = Pattern.compile("(?<![\\d.,/-])" + YEAR + "(?![\\d.,/-]\\d)\\b");
  private static final Pattern BEFORE = Pattern.compile("\\b(before|after|since)\\s+(?:the\\s+)?$", F);

  private static final Map<String, Integer> COUNTS = Map.ofEntries(
      Map.entry("a", 1), Map.entry("an", 1), Map.entry("one", 1), Map.entry("two", 2), Map.entry("three", 3),
      Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6), Map.entry("seven", 7),
      Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10), Map.entry("eleven", 11),
      Map.entry("twelve", 12));

  private TimeReferences() {}

  /**
   * The interval {@code query} refers to, relative to {@code reference}; empty when it refers to none.
   *
   * @param query the search text
   * @param reference the time relative expressions count from ("now" of the question)
   * @return the interval, or empty
   */
  static Optional<Interval> find(String query, Instant reference) {
    LocalDate today = LocalDate.ofInstant(reference, ZoneOffset.UTC);
    Matcher m;
    try {
      if ((m = ISO.matcher(query)).find()) {
        return around(query, m, day(date(m.group(1), m.group(2), m.group(3))));
      }
      if ((m = DOTTED.matcher(query)).find()) {
        return around(query, m, day(date(m.group(3), m.group(2), m.group(1))));
      }
      if ((m = SLASHED.matcher(query)).find()) {
        int a = Integer.parseInt(m.group(1));
        return around(query, m, day(a > 12
            ? date(m.group(3), m.group(2), m.group(1)) : date(m.group(3), m.group(1), m.group(2))));
      }
      if ((m = DAY_MONTH_YEAR.matcher(query)).find()) {
        return around(query, m, day(LocalDate.of(Integer.parseInt(m.group(3)), month(m.group(2)),
            Integer.parseInt(m.group(1)))));
      }
      if ((m = MONTH_DAY_YEAR.matcher(query)).find()) {
        return around(query, m, day(LocalDate.of(Integer.parseInt(m.group(3)), month(m.group(1)),
            Integer.parseInt(m.group(2)))));
      }
      if ((m = MONTH_YEAR.matcher(query)).find()) {
        LocalDate first = LocalDate.of(Integer.parseInt(m.group(2)), month(m.group(1)), 1);
        return around(query, m, span(first, first.plusMonths(1)));
      }
    } catch (DateTimeException | NumberFormatException e) {
      return Optional.empty(); // "31.02.2024" and the like: no such day, no time reference
    }
    if ((m = DAY_BEFORE_YESTERDAY.matcher(query)).find()) {
      return around(query, m, day(today.minusDays(2)));
    }
    if ((m = YESTERDAY.matcher(query)).find()) {
      return around(query, m, day(today.minusDays(1)));
    }
    if ((m = TODAY.matcher(query)).find()) {
      return around(query, m, day(today));
    }
    if ((m = AGO.matcher(query)).find()) {
      return ago(query, m, today);
    }
    if ((m = LAST_WEEKEND.matcher(query)).find()) {
      LocalDate saturday = today.minusDays(1).with(TemporalAdjusters.previousOrSame(DayOfWeek.SATURDAY));
      return around(query, m, span(saturday, saturday.plusDays(2)));
    }
    if ((m = THIS_LAST.matcher(query)).find()) {
      int back = m.group(1).equalsIgnoreCase("this") ? 0 : 1;
      return around(query, m, calendar(m.group(2), today, back));
    }
    try {
      if ((m = DAY_MONTH.matcher(query)).find()) {
        return around(query, m, day(latest(today, month(m.group(2)), Integer.parseInt(m.group(1)))));
      }
      if ((m = MONTH_DAY.matcher(query)).find()) {
        return around(query, m, day(latest(today, month(m.group(1)), Integer.parseInt(m.group(2)))));
      }
    } catch (DateTimeException e) {
      return Optional.empty();
    }
    if ((m = ON_WEEKDAY.matcher(query)).find()) {
      DayOfWeek d = DayOfWeek.valueOf(m.group(1).toUpperCase(Locale.ROOT));
      return around(query, m, day(today.with(TemporalAdjusters.previous(d))));
    }
    if ((m = IN_MONTH.matcher(query)).find()) {
      int month = month(m.group(1));
      LocalDate first = LocalDate.of(today.getYear(), month, 1);
      if (first.isAfter(today)) {
        first = first.minusYears(1);
      }
      return around(query, m, span(first, first.plusMonths(1)));
    }
    if ((m = A_YEAR.matcher(query)).find()) {
      LocalDate first = LocalDate.of(Integer.parseInt(m.group(1)), 1, 1);
      return around(query, m, span(first, first.plusYears(1)));
    }
    return Optional.empty();
  }

  private static Optional<Interval> ago(String query, Matcher m, LocalDate today) {
    String c = m.group(1).toLowerCase(Locale.ROOT);
    Integer n = COUNTS.get(c);
    int count = n != null ? n : Integer.parseInt(c);
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    if (unit.equals("day")) {
      return around(query, m, day(today.minusDays(count)));
    }
    return around(query, m, calendar(unit, today, count));
  }

  /** The calendar week (from Monday), month or year {@code back} units before the one holding {@code today}. */
  private static Interval calendar(String unit, LocalDate today, int back) {
    switch (unit.toLowerCase(Locale.ROOT)) {
      case "week": {
        LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).minusWeeks(back);
        return span(monday, monday.plusWeeks(1));
      }
      case "month": {
        LocalDate first = today.withDayOfMonth(1).minusMonths(back);
        return span(first, first.plusMonths(1));
      }
      default: {
        LocalDate first = today.withDayOfYear(1).minusYears(back);
        return span(first, first.plusYears(1));
      }
    }
  }

  /** The interval found, or the stretch just before / after it when the query says so. */
  private static Optional<Interval> around(String query, Matcher m, Interval found) {
    Matcher b = BEFORE.matcher(query.substring(Math.max(0, m.start() - 20), m.start()));
    if (!b.find()) {
      return Optional.of(found);
    }
    java.time.Duration len = java.time.Duration.between(found.from(), found.to());
    java.time.Duration week = java.time.Duration.ofDays(7);
    java.time.Duration stretch = len.compareTo(week) > 0 ? len : week;
    return Optional.of(b.group(1).equalsIgnoreCase("before")
        ? new Interval(found.from().minus(stretch), found.from())
        : new Interval(found.to(), found.to().plus(stretch)));
  }

  /** The latest day {@code month}/{@code dayOfMonth} on or before {@code today}. */
  private static LocalDate latest(LocalDate today, int month, int dayOfMonth) {
    for (int year = today.getYear(); year >= today.getYear() - 4; year--) {
      try {
        LocalDate d = LocalDate.of(year, month, dayOfMonth);
        if (!d.isAfter(today)) {
          return d;
        }
      } catch (DateTimeException e) {
        // 29 February in a year that has none: try the year before
      }
    }
    throw new DateTimeException("no such day: " + month + "/" + dayOfMonth);
  }

  private static LocalDate date(String year, String month, String day) {
    return LocalDate.of(Integer.parseInt(year), Integer.parseInt(month), Integer.parseInt(day));
  }

  private static int month(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    String[] months = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    for (int i = 0; i < months.length; i++) {
      if (n.startsWith(months[i])) {
        return i + 1;
      }
    }
    throw new DateTimeException("not a month: " + name);
  }

  private static Interval day(LocalDate d) {
    return span(d, d.plusDays(1));
  }

  private static Interval span(LocalDate from, LocalDate to) {
    return new Interval(from.atStartOfDay(ZoneOffset.UTC).toInstant(), to.atStartOfDay(ZoneOffset.UTC).toInstant());
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.EntryType;
import dev.engram.spi.EntryJson;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Column values to and from Java: string lists in the {@link EntryJson} array form, instants as their
 * ISO-8601 text ({@link Instant#toString()}), entry types by wire name. Reading takes a fast path for
 * the forms this store writes and hands anything else to the general parsers.
 */
final class Codec {
  private static final Map<String, EntryType> TYPES = new HashMap<>();

  static {
    for (EntryType t : EntryType.values()) {
      TYPES.put(t.wireName(), t);
    }
  }

  private Codec() {}

  static String strings(List<String> values) {
    return values.isEmpty() ? "[]" : EntryJson.writeStrings(values);
  }

  /** Parses a JSON array of strings; arrays without escapes skip the JSON parser. */
  static List<String> strings(String json) {
    if (json.equals("[]")) {
      return List.of();
    }
    int n = json.length();
    if (n >= 4 && json.startsWith("[\"") && json.endsWith("\"]") && json.indexOf('\\') < 0) {
      List<String> out = new ArrayList<>(4);
      int start = 2;
      while (true) {
        int end = json.indexOf('"', start);
        if (end == n - 2) {
          out.add(json.substring(start, end));
          return List.copyOf(out);
        }
        if (!json.startsWith("\",\"", end)) {
          break;
        }
        out.add(json.substring(start, end));
        start = end + 3;
      }
    }
    return EntryJson.readStrings(json);
  }

  static String instant(Instant at) {
    return at.toString();
  }

  /**
   * Parses {@code yyyy-MM-ddTHH:mm:ss[.fraction]Z} as {@link Instant#toString()} writes it for years
   * 0000..9999; other forms go to {@link Instant#parse}.
   */
  static Instant instant(String text) {
    int n = text.length();
    if (n >= 20 && n <= 30 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == 'T'
        && text.charAt(13) == ':' && text.charAt(16) == ':' && text.charAt(n - 1) == 'Z') {
      int year = digits(text, 0, 4);
      int month = digits(text, 5, 7);
      int day = digits(text, 8, 10);
      int hour = digits(text, 11, 13);
      int minute = digits(text, 14, 16);
      int second = digits(text, 17, 19);
      int nanos = 0;
      boolean ok = year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour < 24
          && minute >= 0 && minute < 60 && second >= 0 && second < 60;
      if (ok && n > 20) {
        int fraction = n - 21;
        ok = text.charAt(19) == '.' && fraction >= 1 && fraction <= 9;
        if (ok) {
          nanos = digits(text, 20, n - 1);
          ok = nanos >= 0;
          for (int i = fraction; i < 9 && ok; i++) {
            nanos *= 10;
          }
        }
      } else if (ok) {
        ok = n == 20;
      }
      if (ok && day <= LocalDate.of(year, month, 1).lengthOfMonth()) {
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600L + minute * 60L + second, nanos);
      }
    }
    return Instant.parse(text);
  }

  private static int digits(String s, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  static EntryType type(String wireName) {
    EntryType t = TYPES.get(wireName);
    return t != null ? t : EntryType.fromWireName(wireName);
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.CapturedSource;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Namespaces;
import dev.engram.Revision;
import dev.engram.json.JsonForms;
import dev.engram.spi.SourceState;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads an export ({@link Transfer} describes the format) into {@link ImportedScope}s: lines up to
 * {@value #MAX_LINE_CHARS} characters, each parsed once into a Jackson tree and read into typed records,
 * every record checked as it is read (a known type after its scope record, in a writable scope, in the
 * form the engine stores, never twice); the checks across records are {@link ImportValidator}'s.
 */
final class ExportReader {
  /** Formats this engine reads: 1 (no sources), 2 (no retrieval keys) and 3. */
  /** Formats this engine reads: 1 (no sources), 2, 3 (retrieval keys) and 4 (experience and review items). */
  private static final Set<Integer> READABLE = Set.of(1, 2, 3, 4);
  private static final int MAX_LINE_CHARS = 4 * 1024 * 1024;
  private static final ObjectMapper MAPPER = JsonForms.mapper();

  private final EngineConfig config;
  private final GrantPolicy policy;
  private final ImportValidator validator;

  ExportReader(EngineConfig config, GrantPolicy policy, ImportValidator validator) {
    this.config = config;
    this.policy = policy;
    this.validator = validator;
  }

  Map<String, ImportedScope> read(Grants grants, Reader in) {
    Map<String, ImportedScope> scopes = new LinkedHashMap<>();
    LineReader reader = new LineReader(in, MAX_LINE_CHARS);
    int lineNo = 0;
    int format = 0;
    try {
      String line;
      while ((line = reader.next(lineNo + 1)) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String where = "line " + lineNo;
        JsonNode n;
        try {
          n = MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
          throw new InvalidInputException(where, "not valid JSON: " + e.getOriginalMessage());
        }
        String type = n.path("record").asText("");
        if (lineNo == 1) {
          if (!type.equals("engram-export") || !n.path("format").isInt() || !READABLE.contains(n.path("format").asInt())) {
            throw new InvalidInputException(where, "not an Engram export header (expected record engram-export, format 1 to "
                + Transfer.FORMAT + ")");
          }
          format = n.path("format").asInt();
          continue;
        }
        if (format < 2 && (type.equals("source") || type.equals("sourceState"))
            || format < 3 && type.equals("keys") || format < 4 && ReviewTransfer.handles(type)) {
          throw new InvalidInputException(where, "a " + type + " record in a format " + format + " export");
        }
        try {
          record(grants, scopes, type, n);
        } catch (InvalidInputException e) {
          throw new InvalidInputException(where, e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("import failed while reading", e);
    }
    if (lineNo == 0) {
      throw new InvalidInputException("in", "the export is empty");
    }
    return scopes;
  }

  /**
   * Reads lines ({@code \n}, {@code \r\n} or {@code \r} terminated) and refuses a line as soon as it
   * grows past the limit, without reading the rest of it.
   */
  static final class LineReader {
    private final Reader in;
    private final int maxChars;
    private final char[] buf = new char[8192];
    private int pos;
    private int end;
    private boolean skipLf;

    LineReader(Reader in, int maxChars) {
      this.in = in;
      this.maxChars = maxChars;
    }

    /** The next line without its terminator, or null at the end of the stream. */
    @Nullable String next(int lineNo) throws IOException {
      StringBuilder sb = null;
      while (true) {
        if (pos == end) {
          end = in.read(buf, 0, buf.length);
          pos = 0;
          if (end <= 0) {
            end = 0;
            return sb == null ? null : sb.toString();
          }
        }
        if (skipLf) {
          skipLf = false;
          if (buf[pos] == '\n') {
            pos++;
            continue;
          }
        }
        int start = pos;
        while (pos < end && buf[pos] != '\n' && buf[pos] != '\r') {
          pos++;
        }
        if (sb == null) {
          sb = new StringBuilder(Math.min(maxChars, 256));
        }
        if ((long) sb.length() + (pos - start) > maxChars) {
          throw new InvalidInputException("line " + lineNo, "is longer than the limit of " + maxChars
              + " characters; reading stopped there");
        }
        sb.append(buf, start, pos - start);
        if (pos < end) {
          skipLf = buf[pos] == '\r';
          pos++;
          return sb.toString();
        }
      }
    }
  }

  private void record(Grants grants, Map<String, ImportedScope> scopes, String type, JsonNode n) {
    String scope = n.path("scope").asText(null);
    if (scope == null) {
      throw new InvalidInputException("scope", "record has no scope");
    }
    Namespaces.validate("scope", scope);
    if (type.equals("scope")) {
      policy.requireWritable(grants, config.writePolicy(), scope);
      if (scopes.containsKey(scope)) {
        throw new InvalidInputException("scope", "scope '" + scope + "' appears twice");
      }
      ImportedScope d = new ImportedScope(scope);
      d.revision = n.path("revision").asLong(-1);
      if (d.revision < 0) {
        throw new InvalidInputException("revision", "scope record needs a revision >= 0");
      }
      scopes.put(scope, d);
      return;
    }
    ImportedScope d = scopes.get(scope);
    if (d == null) {
      throw new InvalidInputException("scope", "record for scope '" + scope + "' before its scope record");
    }
    switch (type) {
      case "revision" -> {
        Revision r = JsonForms.revision(n);
        if (d.revisions.put(r.revision(), r) != null) {
          throw new InvalidInputException("revision", "revision " + r.revision() + " of " + scope + " appears twice");
        }
      }
      case "version" -> {
        MemoryEntry v = validator.checkVersion(JsonForms.entry(n));
        if (d.versions.put(v.versionId(), v) != null) {
          throw new InvalidInputException("versionId", "version " + v.versionId() + " appears twice");
        }
      }
      case "event" -> {
        MemoryEvent e = JsonForms.event(n);
        Text.id("eventId", e.eventId());
        Text.id("entryId", e.entryId());
        ImportValidator.normalized("actor", e.actor(), Text.optionalShort("actor", e.actor(), Text.MAX_SOURCE_CHARS));
        ImportValidator.normalized("reason", e.reason(), Text.optionalShort("reason", e.reason(), Text.MAX_REASON_CHARS));
        if (e.before() != null) {
          validator.checkVersion(e.before());
        }
        if (e.after() != null) {
          validator.checkVersion(e.after());
        }
        d.events.add(e);
      }
      case "topic" -> {
        String topic = Text.topic("topic", n.path("topic").asText(null));
        JsonNode blurb = n.get("blurb");
        String at = n.path("lastUpdatedAt").asText(null);
        Instant lastUpdatedAt;
        try {
          lastUpdatedAt = at == null ? Instant.EPOCH : Instant.parse(at);
        } catch (java.time.format.DateTimeParseException ex) {
          throw new InvalidInputException("lastUpdatedAt", "not an ISO-8601 instant: " + at);
        }
        if (d.topics.stream().anyMatch(t -> t.topic().equals(topic))) {
          throw new InvalidInputException("topic", "topic '" + topic + "' of " + scope + " appears twice");
        }
        d.topics.add(new ImportedScope.Topic(topic,
            blurb == null || blurb.isNull() ? null : Text.shortText("blurb", blurb.asText(), Text.MAX_DISCLOSURE_CHARS),
            n.path("lastWriteRevision").asLong(0), n.path("lastCuratedRevision").asLong(0), lastUpdatedAt));
      }
      case "keys" -> {
        String versionId = Text.id("versionId", n.path("versionId").asText(null));
        if (!d.versions.containsKey(versionId)) {
          throw new InvalidInputException("versionId", "keys of version " + versionId + " before (or without) its version record");
        }
        JsonNode arr = n.get("keys");
        if (arr == null || !arr.isArray() || arr.isEmpty()) {
          throw new InvalidInputException("keys", "keys of version " + versionId + " must be a non-empty array");
        }
        List<String> keys = new ArrayList<>();
        for (JsonNode k : arr) {
          if (!k.isTextual()) {
            throw new InvalidInputException("keys", "keys of version " + versionId + " must be strings");
          }
          keys.add(k.asText());
        }
        List<String> valid = Views.keys(new dev.engram.spi.EntryViews("", List.of(), keys));
        if (!valid.equals(keys)) {
          throw new InvalidInputException("keys", "keys of version " + versionId + " are not in the form the engine stores"
              + " (at most " + dev.engram.spi.EntryViews.MAX_KEYS + ", each non-blank, one line, at most "
              + dev.engram.spi.EntryViews.MAX_KEY_CHARS + " characters)");
        }
        if (d.keys.put(versionId, keys) != null) {
          throw new InvalidInputException("keys", "keys of version " + versionId + " appear twice");
        }
      }
      case "sourceState" -> {
        if (d.sourceState != null) {
          throw new InvalidInputException("sourceState", "the source state of " + scope + " appears twice");
        }
        d.sourceState = new SourceState(wholeNumber(n, "lastPosition"), wholeNumber(n, "cursor"));
      }
      case "source" -> {
        if (d.sourceState == null) {
          throw new InvalidInputException("source", "source record of " + scope + " before its sourceState record");
        }
        CapturedSource c = Sources.checkStored(readSource(n, scope));
        if (c.position() > d.sourceState.lastPosition()) {
          throw new InvalidInputException("position", "source " + c.id() + " of " + scope + " is at position "
              + c.position() + ", beyond the scope's last position " + d.sourceState.lastPosition());
        }
        if (!d.sourceIds.add(c.id())) {
          throw new InvalidInputException("id", "source " + c.id() + " of " + scope + " appears twice");
        }
        if (d.sources.put(c.position(), c) != null) {
          throw new InvalidInputException("position", "two sources of " + scope + " are at position " + c.position());
        }
      }
      case "experience", "reviewItem", "incubation" -> validator.reviews().record(d.review, scope, type, n);
      default -> throw new InvalidInputException("record", "unknown record type '" + type + "'");
    }
  }

  /** A whole number field (no fraction, no text, within long). */
  private static long wholeNumber(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToExactIntegral() || !v.canConvertToLong()) {
      throw new InvalidInputException(field, "must be a whole number");
    }
    return v.asLong();
  }

  private static String requiredText(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new InvalidInputException(field, "must be a string");
    }
    return v.asText();
  }

  private static Instant instant(JsonNode n, String field) {
    String raw = requiredText(n, field);
    try {
      return Instant.parse(raw);
    } catch (java.time.format.DateTimeParseException e) {
      throw new InvalidInputException(field, "not an ISO-8601 instant: " + Text.printableForMessage(raw));
    }
  }

  /** A source record's fields, typed; {@link Sources#checkStored} then checks them as capture would. */
  private static CapturedSource readSource(JsonNode n, String scope) {
    Map<String, String> metadata = new LinkedHashMap<>();
    JsonNode m = n.get("metadata");
    if (m != null && !m.isNull()) {
      if (!m.isObject()) {
        throw new InvalidInputException("metadata", "must be an object of strings");
      }
      if (m.size() > CapturedSource.MAX_METADATA) {
        throw new InvalidInputException("metadata", m.size() + " keys; the limit is " + CapturedSource.MAX_METADATA);
      }
      for (java.util.Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isTextual()) {
          throw new InvalidInputException("metadata", "value of '" + Text.printableForMessage(e.getKey()) + "' is not a string");
        }
        metadata.put(e.getKey(), e.getValue().asText());
      }
    }
    return new CapturedSource(requiredText(n, "id"), scope, wholeNumber(n, "position"), requiredText(n, "sessionId"),
        requiredText(n, "speaker"), requiredText(n, "text"), instant(n, "occurredAt"), metadata, instant(n, "capturedAt"));
  }
}

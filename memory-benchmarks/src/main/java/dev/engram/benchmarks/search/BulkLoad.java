/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.TransferReport;
import dev.engram.spi.EntryJson;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * Fills one scope through the public bulk path: an export stream in the engine's JSON Lines format
 * holding, for each text, exactly what {@link Engram#write} with the deterministic reasoner would have
 * committed (one entry, topic {@code general}, type fact, priority 2, its revision and its create
 * event), read back with {@link dev.engram.EngramOperator#importFrom}, which validates every record; then
 * {@link dev.engram.EngramOperator#reindex} embeds every entry through the configured embedder, the same path that fills
 * in vectors after a profile change.
 */
final class BulkLoad {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Instant BASE = Instant.parse("2025-01-01T00:00:00Z");

  private BulkLoad() {}

  /** Imports {@code texts} into {@code scope} and embeds them; returns the number of versions embedded. */
  static int load(Engram engram, Grants grants, String scope, List<String> texts, Path work, boolean keys)
      throws IOException {
    Path file = work.resolve("export.jsonl");
    try (Writer out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
      write(out, scope, texts, keys);
    }
    TransferReport report;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      report = engram.operator().importFrom(grants, in, ImportOptions.defaults());
    } finally {
      Files.delete(file);
    }
    if (report.versions() != texts.size()) {
      throw new IllegalStateException("imported " + report.versions() + " versions, expected " + texts.size());
    }
    return engram.operator().reindex(grants);
  }

  /** The retrieval key of entry {@code i > 0}: the text before it, clipped, and its own, as turn extraction makes it. */
  static String key(List<String> texts, int i) {
    String before = texts.get(i - 1).replaceAll("\\s+", " ").strip();
    String key = (before.length() > 300 ? before.substring(0, 300).strip() : before) + " "
        + texts.get(i).replaceAll("\\s+", " ").strip();
    return key.length() > 1000 ? key.substring(0, 1000).strip() : key;
  }

  /** The unit-length sum of two vectors: the key's derived vector. */
  static float[] sum(float[] a, float[] b) {
    float[] out = new float[a.length];
    double norm = 0;
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] + b[i];
      norm += (double) out[i] * out[i];
    }
    float inv = (float) (1 / Math.sqrt(Math.max(norm, 1e-12)));
    for (int i = 0; i < out.length; i++) {
      out[i] *= inv;
    }
    return out;
  }

  private static void write(Writer out, String scope, List<String> texts, boolean keys) throws IOException {
    ObjectNode header = MAPPER.createObjectNode();
    header.put("record", "engram-export");
    header.put("format", keys ? 3 : 1);
    line(out, header);
    ObjectNode s = MAPPER.createObjectNode();
    s.put("record", "scope");
    s.put("scope", scope);
    s.put("revision", texts.size());
    line(out, s);
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    MemoryEntry[] entries = new MemoryEntry[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      String content = texts.get(i);
      String hash = HexFormat.of().formatHex(sha.digest(content.getBytes(StandardCharsets.UTF_8)));
      Instant at = BASE.plusMillis(i);
      long rev = i + 1;
      entries[i] = new MemoryEntry(
          id("e", i), id("v", i), 1, null, scope, content, List.of("general"), EntryType.FACT, 2, null,
          List.of(), null, null, List.of(), hash, EntryStatus.ACTIVE, null, null, at, at, rev);
      line(out, typed("revision", EntryJson.writeRevision(new Revision(scope, rev,
          List.of(new Change(ChangeKind.APPEND, entries[i].entryId(), entries[i].versionId())), at))));
    }
    for (MemoryEntry e : entries) {
      line(out, typed("version", EntryJson.writeEntry(e)));
    }
    for (int i = 1; keys && i < entries.length; i++) {
      ObjectNode k = MAPPER.createObjectNode();
      k.put("record", "keys");
      k.put("scope", scope);
      k.put("versionId", entries[i].versionId());
      k.putArray("keys").add(key(texts, i));
      line(out, k);
    }
    for (int i = 0; i < entries.length; i++) {
      MemoryEntry e = entries[i];
      line(out, typed("event", EntryJson.writeEvent(new MemoryEvent(
          id("c", i), scope, e.entryId(), EventKind.CREATE, null, e, null, null, e.createdInRevision(), e.createdAt(), null))));
    }
    ObjectNode topic = MAPPER.createObjectNode();
    topic.put("record", "topic");
    topic.put("scope", scope);
    topic.put("topic", "general");
    topic.putNull("blurb");
    topic.put("lastWriteRevision", texts.size());
    topic.put("lastCuratedRevision", 0);
    topic.put("lastUpdatedAt", BASE.plusMillis(texts.size() - 1L).toString());
    line(out, topic);
  }

  /** Ids that sort by creation, as the engine's own ids do. */
  private static String id(String prefix, int i) {
    return String.format("bench-%s-%09d", prefix, i);
  }

  private static String typed(String type, String body) {
    return "{\"record\":\"" + type + "\"," + body.substring(1);
  }

  private static void line(Writer out, ObjectNode node) throws IOException {
    line(out, node.toString());
  }

  private static void line(Writer out, String json) throws IOException {
    out.write(json);
    out.write('\n');
  }
}

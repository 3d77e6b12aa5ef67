/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.CapturedSource;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryException;
import dev.engram.SourceQuery;
import dev.engram.SourceConflictException;
import dev.engram.SourceRecord;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A chat framework's conversation window kept as captured sources, for chat memory adapters
 * (Spring AI's {@code ChatMemoryRepository}, LangChain4j's {@code ChatMemoryStore}): the conversation id
 * is the source session, every message one captured record in the first grant's scope, so
 * {@link Engram#flush} can later turn the conversation into cited memories.
 *
 * <p><b>Replace over append-only sources.</b> Frameworks replace a conversation's whole message list
 * (a window that drops old messages as new ones arrive); sources are never edited. Each record
 * carries an index (1, 2, … per conversation, never reused) and the current window as of its capture:
 * every record from index {@value #START_KEY} on, plus a few pinned earlier ones (a system message a
 * window keeps). {@link #replace} finds the given list in the current window: the messages it keeps are
 * not captured again, the new ones are appended with the new window. A list that is not the current
 * window with some messages left out and others added at the end (an edited or reordered message, or
 * a list without anything new) is captured again in full as the new window. An empty list captures
 * one marker record ({@value #MARKER_KEY}). Nothing is removed: messages that left the window stay
 * captured (for flush and evidence) until {@link #delete} erases the conversation.
 *
 * <p><b>Exact text.</b> Capture normalizes text as entry content (NFC, whitespace runs, blank lines).
 * A turn whose text that would change is stored as a JSON string literal in printable ASCII (marked
 * {@value #ESCAPED_KEY}), so every turn reads back exactly as given.
 *
 * <p>A conversation holds at most {@link SourceQuery#MAX_LIMIT} records for this log to read; beyond
 * that reads fail with an {@link InvalidInputException} naming the conversation. Concurrent replaces of
 * one conversation are not serialized: one that finds its records taken by another fails with a
 * {@link MemoryException} ({@link ErrorCode#REVISION_CONFLICT}) and may be retried. Thread-safe.
 */
public final class ConversationLog {
  /** The metadata key of a record's index in its conversation. */
  public static final String INDEX_KEY = "chat.index";
  /** The metadata key of the first index of the window as of the record. */
  public static final String START_KEY = "chat.start";
  /** The metadata key of the pinned indices (comma-separated) of the window as of the record. */
  public static final String PINNED_KEY = "chat.pinned";
  /** The metadata key of the adapter's format label of a turn's text. */
  public static final String FORMAT_KEY = "chat.format";
  /** The metadata key set to {@code true} when the text is stored as a JSON string literal. */
  public static final String ESCAPED_KEY = "chat.escaped";
  /** The metadata key of the record an empty replace captures; it is no turn. */
  public static final String MARKER_KEY = "chat.marker";
  /** The most pinned messages a window keeps before a replace captures the list again. */
  static final int MAX_PINNED = 32;
  static final String MARKER_SPEAKER = "engram";
  private static final Logger LOG = LoggerFactory.getLogger(ConversationLog.class);
  private static final ObjectMapper ESCAPING = JsonMapper.builder()
      .enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
  private static final ObjectMapper READING = new ObjectMapper();

  /**
   * One message of a conversation as the adapter encodes it.
   *
   * @param role the speaker recorded with it: {@code user}, {@code assistant}, {@code system},
   *     {@code tool} or another short name (1..128 characters)
   * @param text the message text, any characters, read back exactly; not empty
   * @param format the adapter's label of how {@code text} encodes the message, e.g. a JSON form; null
   *     for plain text
   */
  public record Turn(String role, String text, @Nullable String format) {
    /**
     * Checks the role and the text.
     *
     * @param role the speaker recorded with it
     * @param text the message text, not empty
     * @param format the adapter's label of how {@code text} encodes the message, or null for plain text
     * @throws NullPointerException when {@code role} or {@code text} is null
     * @throws InvalidInputException when {@code text} is empty
     */
    public Turn {
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(text, "text");
      if (text.isEmpty()) {
        throw new InvalidInputException("text", "a turn's text is empty");
      }
    }

    /**
     * A plain text turn.
     *
     * @param role the speaker
     * @param text the text
     * @return the turn
     */
    public static Turn of(String role, String text) {
      return new Turn(role, text, null);
    }
  }

  /**
   * The conversations of some grants.
   *
   * @param ids the conversation ids, in the order their first records were captured
   * @param complete false when the scope held more records than one read returns, so that some
   *     conversations may be missing (logged as a warning too)
   */
  public record Conversations(List<String> ids, boolean complete) {
    /**
     * Copies the ids.
     *
     * @param ids the conversation ids, in the order their first records were captured
     * @param complete false when some conversations may be missing
     * @throws NullPointerException when {@code ids} or an id is null
     */
    public Conversations {
      ids = List.copyOf(ids);
    }
  }

  private final Engram engram;

  private ConversationLog(Engram engram) {
    this.engram = engram;
  }

  /**
   * A log over an engine whose store declares {@code SOURCES}.
   *
   * @param engram the engine
   * @return the log
   * @throws NullPointerException if {@code engram} is null
   */
  public static ConversationLog of(Engram engram) {
    return new ConversationLog(Objects.requireNonNull(engram, "engram"));
  }

  /**
   * The conversations captured through a log in the first grant's scope.
   *
   * @param grants the caller's grants
   * @return the ids, and whether the listing is complete
   * @throws NullPointerException if {@code grants} is null
   */
  public Conversations conversations(Grants grants) {
    Objects.requireNonNull(grants, "grants");
    List<CapturedSource> all = engram.sources(grants,
        SourceQuery.builder().scope(scopeOf(grants)).limit(SourceQuery.MAX_LIMIT).build());
    Set<String> ids = new LinkedHashSet<>();
    for (CapturedSource s : all) {
      if (s.metadata(INDEX_KEY) != null) {
        ids.add(s.sessionId());
      }
    }
    boolean complete = all.size() < SourceQuery.MAX_LIMIT;
    if (!complete) {
      LOG.warn("listing conversations read the first {} captured records of the scope only; some conversations "
          + "may be missing", SourceQuery.MAX_LIMIT);
    }
    return new Conversations(new ArrayList<>(ids), complete);
  }

  /**
   * The current window of a conversation, oldest first (empty when nothing was captured).
   *
   * @param grants the caller's grants
   * @param conversationId the conversation, in the id alphabet of {@link Grants#template(String)}
   *     ({@value Grants.Template#ID_ALPHABET}), which is also a source session id
   * @return the turns, exactly as given to {@link #replace}
   * @throws InvalidInputException if the id is not in the id alphabet, or the conversation has more records
   *     than one read returns
   */
  public List<Turn> read(Grants grants, String conversationId) {
    return window(grants, conversationId).turns();
  }

  /**
   * Makes {@code turns} the conversation's window (see the class description for how replacing maps
   * onto append-only sources). Every record is validated before any is captured.
   *
   * @param grants the caller's grants; records go to the first grant's scope
   * @param conversationId the conversation
   * @param turns the whole new window, oldest first
   * @throws InvalidInputException naming the turn and field when one cannot be captured (too long,
   *     a malformed role), or the conversation id is not in the id alphabet
   * @throws MemoryException with {@link ErrorCode#REVISION_CONFLICT} when another replace of the same
   *     conversation took the records' indices meanwhile
   * @throws NullPointerException if {@code turns} or a turn is null
   */
  public void replace(Grants grants, String conversationId, List<Turn> turns) {
    Objects.requireNonNull(turns, "turns");
    for (int i = 0; i < turns.size(); i++) {
      Objects.requireNonNull(turns.get(i), "turns[" + i + "]");
    }
    Window current = window(grants, conversationId);
    if (current.turns().equals(turns)) {
      return;
    }
    // the longest prefix of the new list found, in order, in the current window
    List<Long> kept = new ArrayList<>();
    int matched = 0;
    int j = 0;
    while (matched < turns.size() && j < current.records().size()) {
      if (current.records().get(j).turn().equals(turns.get(matched))) {
        kept.add(current.records().get(j).index());
        matched++;
      }
      j++;
    }
    long next = current.lastIndex() + 1;
    Set<Long> keptSet = new TreeSet<>(kept);
    long start = next;
    for (int i = current.all().size() - 1; i >= 0 && keptSet.contains(current.all().get(i)); i--) {
      start = current.all().get(i);
    }
    List<Long> pinned = new ArrayList<>();
    for (long k : kept) {
      if (k < start) {
        pinned.add(k);
      }
    }
    List<Turn> append = turns.subList(matched, turns.size());
    if (append.isEmpty() || pinned.size() > MAX_PINNED) {
      // not expressible as the current window with messages left out and new ones appended: capture it all
      append = turns;
      start = next;
      pinned = List.of();
    }
    String pins = pinned.isEmpty() ? null : String.join(",", pinned.stream().map(String::valueOf).toList());
    List<SourceRecord> records = new ArrayList<>();
    if (append.isEmpty()) {
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put(INDEX_KEY, String.valueOf(next));
      meta.put(START_KEY, String.valueOf(next + 1));
      meta.put(MARKER_KEY, "cleared");
      records.add(new SourceRecord(recordId(conversationId, next), null, conversationId, MARKER_SPEAKER,
          "The conversation window was cleared.", null, meta));
    }
    long index = next;
    for (Turn t : append) {
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put(INDEX_KEY, String.valueOf(index));
      meta.put(START_KEY, String.valueOf(start));
      if (pins != null) {
        meta.put(PINNED_KEY, pins);
      }
      if (t.format() != null) {
        meta.put(FORMAT_KEY, t.format());
      }
      String text = t.text();
      if (!storedExactly(text)) {
        meta.put(ESCAPED_KEY, "true");
        text = escape(text);
      }
      records.add(new SourceRecord(recordId(conversationId, index), null, conversationId, t.role(), text, null, meta));
      index++;
    }
    try {
      engram.captureAll(grants, records);
    } catch (SourceConflictException e) {
      // another writer captured other turns under the same record ids first; nothing of this call was stored
      throw new MemoryException(ErrorCode.REVISION_CONFLICT, "conversation " + conversationId
          + " was changed by another writer meanwhile; read it again and retry", e);
    }
  }

  /**
   * Erases every record a log captured for the conversation, in and out of the window (right to be
   * forgotten). Records of the same session captured otherwise stay; entries extracted from erased
   * records keep their content (erase those with {@link Engram#deleteEntry}).
   *
   * @param grants the caller's grants; the scope must be writable
   * @param conversationId the conversation
   * @return the number of records erased
   * @throws InvalidInputException if the id is not in the id alphabet
   */
  public int delete(Grants grants, String conversationId) {
    List<CapturedSource> records = records(grants, conversationId);
    int erased = 0;
    for (CapturedSource s : records) {
      if (s.metadata(INDEX_KEY) != null) {
        engram.deleteSource(grants, s.scope(), s.id());
        erased++;
      }
    }
    return erased;
  }

  // ---- reading

  private record Stored(long index, Turn turn) {}

  /**
   * @param records the turns of the window, by index
   * @param all every index a log captured for the conversation, ascending
   * @param lastIndex the highest index, 0 when none
   */
  private record Window(List<Stored> records, List<Long> all, long lastIndex) {
    List<Turn> turns() {
      return records.stream().map(Stored::turn).toList();
    }
  }

  private List<CapturedSource> records(Grants grants, String conversationId) {
    Objects.requireNonNull(grants, "grants");
    Objects.requireNonNull(conversationId, "conversationId");
    Grants.Template.requireId("conversationId", conversationId);
    List<CapturedSource> out = engram.sources(grants,
        SourceQuery.builder().session(conversationId).scope(scopeOf(grants)).limit(SourceQuery.MAX_LIMIT).build());
    if (out.size() >= SourceQuery.MAX_LIMIT) {
      throw new InvalidInputException("conversationId", "conversation " + conversationId + " holds "
          + SourceQuery.MAX_LIMIT + " or more captured records, more than one read returns; delete it or start a "
          + "new conversation");
    }
    return out;
  }

  private Window window(Grants grants, String conversationId) {
    List<CapturedSource> mine = new ArrayList<>();
    for (CapturedSource s : records(grants, conversationId)) {
      if (parseIndex(s.metadata(INDEX_KEY)) > 0) {
        mine.add(s);
      }
    }
    mine.sort(Comparator.comparingLong(s -> parseIndex(s.metadata(INDEX_KEY))));
    if (mine.isEmpty()) {
      return new Window(List.of(), List.of(), 0);
    }
    CapturedSource last = mine.get(mine.size() - 1);
    long start = parseIndex(last.metadata(START_KEY));
    Set<Long> pinned = new TreeSet<>();
    String pins = last.metadata(PINNED_KEY);
    if (pins != null) {
      for (String p : pins.split(",")) {
        pinned.add(parseIndex(p.strip()));
      }
    }
    List<Stored> window = new ArrayList<>();
    List<Long> all = new ArrayList<>();
    for (CapturedSource s : mine) {
      long index = parseIndex(s.metadata(INDEX_KEY));
      all.add(index);
      if (s.metadata(MARKER_KEY) == null && (index >= start || pinned.contains(index))) {
        String text = "true".equals(s.metadata(ESCAPED_KEY)) ? unescape(s.text()) : s.text();
        window.add(new Stored(index, new Turn(s.speaker(), text, s.metadata(FORMAT_KEY))));
      }
    }
    return new Window(List.copyOf(window), List.copyOf(all), all.get(all.size() - 1));
  }

  private static long parseIndex(@Nullable String value) {
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String scopeOf(Grants grants) {
    return grants.namespaces().get(0);
  }

  /** A record id unique per conversation and index: {@code chat.<24 hex of SHA-256(id)>.<index>}. */
  static String recordId(String conversationId, long index) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(conversationId.getBytes(StandardCharsets.UTF_8));
      return "chat." + HexFormat.of().formatHex(digest, 0, 12) + "." + index;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  // ---- exact text

  /**
   * Whether capture stores {@code text} unchanged: NFC, no line breaks but single {@code \n} between
   * non-blank lines, no whitespace but single spaces inside a line, no control or format characters.
   * Conservative: a text this says no to is stored escaped, which is always exact.
   */
  static boolean storedExactly(String text) {
    if (text.isEmpty() || !Normalizer.isNormalized(text, Normalizer.Form.NFC)) {
      return false;
    }
    char prev = '\n';
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        if (prev == '\n' || prev == ' ') {
          return false;
        }
      } else if (c == ' ') {
        if (prev == ' ' || prev == '\n') {
          return false;
        }
      } else if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)
          || Character.isSurrogate(c) || !Character.isDefined(c)
          || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.PRIVATE_USE) {
        return false;
      }
      prev = c;
    }
    return prev != '\n' && prev != ' ';
  }

  /** {@code text} as a JSON string literal of printable ASCII without two spaces in a row. */
  static String escape(String text) {
    String json;
    try {
      json = ESCAPING.writeValueAsString(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string could not be written as JSON", e);
    }
    StringBuilder out = new StringBuilder(json.length());
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c == ' ' && i > 0 && json.charAt(i - 1) == ' ') {
        out.append("\\u0020");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static String unescape(String stored) {
    try {
      return READING.readValue(stored, String.class);
    } catch (JsonProcessingException e) {
      throw new MemoryException(ErrorCode.INVALID_INPUT, "a captured chat record holds no valid escaped text");
    }
  }
}

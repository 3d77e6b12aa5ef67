/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.SourceQuery;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ADK's own session and event types through {@link EngramMemoryService}, on a real SQLite file. */
class EngramMemoryServiceTest {
  static final Grants.Template USERS = Grants.template("adk/{id}");
  @TempDir Path dir;
  Engram engram;
  EngramMemoryService memory;

  @BeforeEach
  void open() {
    engram = Engram.builder().store(new SqliteMemoryStore(dir.resolve("adk.db"))).reasoner(new DeterministicReasoner())
        .build();
    memory = EngramMemoryService.of(engram, USERS);
  }

  @AfterEach
  void close() {
    engram.close();
  }

  static Event event(String id, String author, String text, long millis) {
    return Event.builder().id(id).invocationId("inv-1").author(author)
        .content(Content.builder().role(author.equals("user") ? "user" : "model").parts(List.of(Part.fromText(text)))
            .build())
        .timestamp(millis).build();
  }

  static Session session(String app, String user, String id, List<Event> events) {
    return Session.builder(id).appName(app).userId(user).events(new ArrayList<>(events)).build();
  }

  static List<String> texts(List<MemoryEntry> memories) {
    return memories.stream().map(m -> m.content().text()).toList();
  }

  @Test
  void addedSessionsAreFoundForTheirUserAndNeverForAnother() {
    long t = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();
    BaseMemoryService service = memory;
    service.addSessionToMemory(session("weather", "alice", "s-1", List.of(
        event("e-1", "user", "I live in Grenoble and I prefer Celsius.", t),
        event("e-2", "forecaster", "Noted: Grenoble, in Celsius.", t + 1000)))).blockingAwait();
    service.addSessionToMemory(session("weather", "bob", "s-2", List.of(
        event("e-3", "user", "I live in Lisbon.", t)))).blockingAwait();

    List<MemoryEntry> found = service.searchMemory("weather", "alice", "Where does the user live, Grenoble?")
        .blockingGet().memories();
    assertThat(texts(found)).contains("user: I live in Grenoble and I prefer Celsius.");
    assertThat(texts(found)).noneMatch(s -> s.contains("Lisbon"));
    MemoryEntry first = found.stream().filter(m -> m.content().text().contains("Celsius.")).findFirst().orElseThrow();
    assertThat(first.content().role()).contains("user");
    assertThat(first.timestamp()).isNotBlank();

    assertThat(texts(service.searchMemory("weather", "bob", "Grenoble").blockingGet().memories())).isEmpty();
    assertThat(texts(service.searchMemory("weather", "bob", "Lisbon").blockingGet().memories()))
        .containsExactly("user: I live in Lisbon.");
    assertThat(service.searchMemory("news", "alice", "Grenoble").blockingGet().memories()).isEmpty();
    assertThat(service.searchMemory("weather", "alice", "   ").blockingGet().memories()).isEmpty();
    assertThat(memory.grants("weather", "alice").namespaces()).containsExactly("adk/weather:alice");
  }

  @Test
  void addingASessionAgainCapturesOnlyItsNewEventsAndSkipsPartialAndTextlessOnes() {
    long t = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();
    List<Event> events = new ArrayList<>(List.of(event("e-1", "user", "My bike is blue.", t)));
    memory.addSessionToMemory(session("app", "carol", "s-1", events)).blockingAwait();
    events.add(event("e-2", "user", "My car is red.", t + 1000));
    events.add(Event.builder().id("e-3").author("agent").partial(true)
        .content(Content.fromParts(Part.fromText("My ca"))).timestamp(t + 2000).build());
    events.add(Event.builder().id("e-4").author("agent").timestamp(t + 3000).build());
    memory.addSessionToMemory(session("app", "carol", "s-1", events)).blockingAwait();

    Grants carol = memory.grants("app", "carol");
    assertThat(engram.sources(carol, SourceQuery.defaults())).extracting(dev.engram.CapturedSource::text)
        .containsExactly("My bike is blue.", "My car is red.");
    assertThat(engram.sources(carol, SourceQuery.defaults()).get(0).occurredAt()).isEqualTo(Instant.ofEpochMilli(t));
    assertThat(engram.sources(carol, SourceQuery.defaults()).get(0).metadata())
        .containsEntry(EngramMemoryService.INVOCATION_KEY, "inv-1");
    assertThat(engram.list(carol)).extracting(dev.engram.MemoryEntry::content)
        .containsExactly("user: My bike is blue.", "user: My car is red.");
  }

  @Test
  void captureOnlyLeavesTheFlushToTheApplication() {
    EngramMemoryService deferred = EngramMemoryService.of(engram, USERS,
        AdkMemoryOptions.builder().flush(AdkMemoryOptions.Flush.BY_APPLICATION).searchLimit(3).build());
    deferred.addSessionToMemory(session("app", "dan", "s-1", List.of(event("e-1", "user", "I play the cello.", 1000L))))
        .blockingAwait();
    assertThat(deferred.searchMemory("app", "dan", "cello").blockingGet().memories()).isEmpty();
    engram.flush(deferred.grants("app", "dan"));
    assertThat(texts(deferred.searchMemory("app", "dan", "cello").blockingGet().memories()))
        .containsExactly("user: I play the cello.");
  }

  @Test
  void idsOutsideTheAlphabetReachNoNamespaceAndStoreNothing() {
    for (String[] bad : List.of(new String[] {"weather/../x", "alice"}, new String[] {"weather", "../bob"},
        new String[] {"we:ather", "alice"}, new String[] {"weather", "al ice"}, new String[] {"", "alice"})) {
      assertThatThrownBy(() -> memory.addSessionToMemory(session(bad[0], bad[1], "s-1",
          List.of(event("e-1", "user", "secret", 1L)))).blockingAwait()).as(String.join("|", bad))
          .isInstanceOf(InvalidInputException.class);
      assertThatThrownBy(() -> memory.searchMemory(bad[0], bad[1], "secret").blockingGet())
          .isInstanceOf(InvalidInputException.class);
    }
    assertThat(engram.list(Grants.of("adk"), ListOptions.builder().includeRetired(true).build())).isEmpty();
    assertThat(rowsMentioning("secret")).isEmpty();
  }

  @Test
  void deletingAUsersMemoryLeavesNothingOfItAndKeepsEveryoneElses() {
    long t = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();
    String secret = "My locker code is Zebra-4417.";
    memory.addSessionToMemory(session("weather", "alice", "s-1", List.of(event("e-1", "user", secret, t),
        event("e-2", "agent", "I will remember Zebra-4417.", t + 1)))).blockingAwait();
    memory.addSessionToMemory(session("weather", "bob", "s-2", List.of(event("e-3", "user", "Bob likes Zebra crossings.",
        t)))).blockingAwait();
    Grants alice = memory.grants("weather", "alice");
    String entryId = engram.list(alice).get(0).entryId();
    assertThat(rowsMentioning("4417")).isNotEmpty();

    memory.deleteUserMemory("weather", "alice").blockingAwait();

    assertThat(engram.list(alice, ListOptions.builder().includeSuperseded(true).includeRetired(true).build())).isEmpty();
    assertThat(engram.sources(alice, SourceQuery.defaults())).isEmpty();
    assertThat(memory.searchMemory("weather", "alice", "locker code Zebra").blockingGet().memories()).isEmpty();
    assertThatThrownBy(() -> engram.history(alice, entryId)).isInstanceOf(dev.engram.NotFoundException.class);
    assertThat(rowsMentioning("4417")).as("no stored row mentions the erased text").isEmpty();
    assertThat(texts(memory.searchMemory("weather", "bob", "Zebra").blockingGet().memories()))
        .containsExactly("user: Bob likes Zebra crossings.");
  }

  /** Every row of every table of the SQLite file with a text column containing {@code text}. */
  List<String> rowsMentioning(String text) {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("adk.db"))) {
      List<String> tables = new ArrayList<>();
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      for (String table : tables) {
        List<String> columns = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
          while (rs.next()) {
            columns.add(rs.getString("name"));
          }
        }
        for (String column : columns) {
          try (PreparedStatement ps = c.prepareStatement("SELECT \"" + column + "\" FROM \"" + table + "\" WHERE typeof(\""
              + column + "\") = 'text' AND instr(\"" + column + "\", ?) > 0")) {
            ps.setString(1, text);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(table + "." + column + ": " + rs.getString(1));
              }
            }
          }
        }
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.adk;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.memory.SearchMemoryResponse;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.engram.Engram;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.SourceRecord;
import dev.engram.agent.AgentMemory;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engram as ADK's memory: a durable, governed {@link BaseMemoryService} for Google's Agent Development
 * Kit for Java. {@link #addSessionToMemory} captures the session's events as sources (each text event
 * once, however often the session is added) and, by default, flushes them into memories through the
 * engine's reasoner; {@link #searchMemory} searches those memories; {@link #deleteUserMemory} erases a
 * user's memory, which ADK's interface has no call for.
 *
 * <p>Trusted code maps ADK's app name and user id to grants through one template: the template's id is
 * {@code <appName>:<userId>}, so with {@code Grants.template("adk/{id}")} the user {@code alice} of the app
 * {@code weather} works in {@code adk/weather:alice}, and no app name or user id can reach another
 * namespace. Both must be in the {@linkplain Grants.Template#ID_ALPHABET id alphabet}, the app name without
 * {@code ':'} (so that the pair maps one to one); anything else fails the call with an
 * {@link InvalidInputException} naming it, and nothing is read or stored.
 *
 * <pre>{@code
 * BaseMemoryService memory = EngramMemoryService.of(engram, Grants.template("adk/{id}"));
 * Runner runner = new Runner(agent, "weather", artifactService, sessionService, memory);
 * }</pre>
 *
 * <p>Every call runs when its {@code Completable}/{@code Single} is subscribed, on the subscribing thread,
 * and fails with the engine's exception. Immutable and thread-safe.
 */
public final class EngramMemoryService implements BaseMemoryService {
  /** What joins the app name and the user id into the template's id. */
  public static final String SEPARATOR = ":";
  /** The metadata key of a captured event that names its ADK invocation. */
  public static final String INVOCATION_KEY = "adk.invocation";
  private static final Logger LOG = LoggerFactory.getLogger(EngramMemoryService.class);

  private final Engram engram;
  private final Grants.Template users;
  private final AdkMemoryOptions options;

  private EngramMemoryService(Engram engram, Grants.Template users, AdkMemoryOptions options) {
    this.engram = engram;
    this.users = users;
    this.options = options;
  }

  /**
   * A memory service with default options.
   *
   * @param engram the engine
   * @param users the template that maps {@code <appName>:<userId>} to grants, e.g. {@code adk/{id}}
   * @return the service
   * @throws NullPointerException if an argument is null
   */
  public static EngramMemoryService of(Engram engram, Grants.Template users) {
    return of(engram, users, AdkMemoryOptions.defaults());
  }

  /**
   * A memory service.
   *
   * @param engram the engine
   * @param users the template that maps {@code <appName>:<userId>} to grants, e.g. {@code adk/{id}}
   * @param options search limit and flush mode
   * @return the service
   * @throws NullPointerException if an argument is null
   */
  public static EngramMemoryService of(Engram engram, Grants.Template users, AdkMemoryOptions options) {
    return new EngramMemoryService(Objects.requireNonNull(engram, "engram"), Objects.requireNonNull(users, "users"),
        Objects.requireNonNull(options, "options"));
  }

  /**
   * The grants of one ADK user, as every call of this service uses them.
   *
   * @param appName ADK's app name (the id alphabet, without {@code ':'})
   * @param userId ADK's user id (the id alphabet)
   * @return the grants: the template filled with {@code <appName>:<userId>}
   * @throws InvalidInputException if either is not an id, or the app name holds {@code ':'}
   * @throws NullPointerException if an argument is null
   */
  public Grants grants(String appName, String userId) {
    Grants.Template.requireId("appName", Objects.requireNonNull(appName, "appName"));
    Grants.Template.requireId("userId", Objects.requireNonNull(userId, "userId"));
    if (appName.contains(SEPARATOR)) {
      throw new InvalidInputException("appName", "must not contain '" + SEPARATOR + "', which separates it from the "
          + "user id");
    }
    return users.grants(appName + SEPARATOR + userId);
  }

  /**
   * Captures the session's events with text (not partial ones) as sources of the session's user: one
   * record per event, with the event's id, author as speaker, text parts joined by line breaks, time and
   * invocation. An event captured before is a no-op, so adding a session again captures only its new
   * events. Then, with {@link AdkMemoryOptions.Flush#AFTER_EACH_ADD}, flushes the user's scope: the
   * reasoner turns the captured events into memories. A window the reasoner could not extract is kept
   * for the next flush and logged; the call still completes (the events are captured).
   *
   * @param session the session, with its app name, user id and events
   * @return completes when the events are captured (and flushed)
   */
  @Override
  public Completable addSessionToMemory(Session session) {
    Objects.requireNonNull(session, "session");
    return Completable.fromAction(() -> add(session));
  }

  /**
   * The user's memories that match {@code query}, best first, at most the configured limit: an
   * {@code AUTO} search (hybrid when the engine has an embedder) of the user's grants only. A blank query
   * finds nothing. Each memory comes as ADK's {@link MemoryEntry}: the remembered text as a
   * {@code user}-role content, its author the actor that wrote it (or {@code memory}), its time when it
   * was last written.
   *
   * @param appName ADK's app name
   * @param userId ADK's user id
   * @param query what to look for
   * @return the memories found
   */
  @Override
  public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
    Objects.requireNonNull(query, "query");
    return Single.fromCallable(() -> search(grants(appName, userId), query));
  }

  /**
   * Erases everything the user's grants hold: every memory with all its versions and history, every
   * captured event and the extraction cursor, in the user's namespace and below it. What is erased cannot
   * be recovered; a later {@code searchMemory} for the user finds nothing.
   *
   * @param appName ADK's app name
   * @param userId ADK's user id
   * @return completes when the user's memory is erased
   */
  public Completable deleteUserMemory(String appName, String userId) {
    return Completable.fromAction(() -> {
      Grants g = grants(appName, userId);
      int erased = 0;
      for (String scope : g.namespaces()) {
        erased += engram.deleteScope(g, scope, dev.engram.DeleteScopeOptions.withDescendants());
      }
      LOG.info("erased the memory of one ADK user: {} entries", erased);
    });
  }

  private void add(Session session) {
    Grants g = grants(session.appName(), session.userId());
    List<SourceRecord> records = new ArrayList<>();
    for (Event e : session.events()) {
      if (e.partial().orElse(false)) {
        continue;
      }
      String text = text(e.content());
      if (text.isBlank()) {
        continue;
      }
      SourceRecord r = SourceRecord.of(session.id(), e.author(), text).id(e.id()).at(Instant.ofEpochMilli(e.timestamp()));
      if (e.invocationId() != null && !e.invocationId().isEmpty()) {
        r = r.metadata(Map.of(INVOCATION_KEY, e.invocationId()));
      }
      records.add(r);
    }
    if (!records.isEmpty()) {
      engram.captureAll(g, records);
    }
    if (options.flush() == AdkMemoryOptions.Flush.AFTER_EACH_ADD) {
      FlushReport report = engram.flush(g);
      if (!report.failures().isEmpty()) {
        LOG.warn("addSessionToMemory: {} window(s) could not be turned into memories yet; they stay captured for the "
            + "next flush", report.failures().size());
      }
    }
  }

  private SearchMemoryResponse search(Grants g, String query) {
    String q = AgentMemory.recallQuery(query);
    if (q.isEmpty()) {
      return SearchMemoryResponse.builder().setMemories(List.of()).build();
    }
    SearchResult result = engram.search(g, SearchRequest.builder(q).limit(options.searchLimit()).build());
    if (result.fallbackReason() != null) {
      LOG.info("searchMemory ran full text only: {}", result.fallbackReason());
    }
    List<MemoryEntry> out = new ArrayList<>();
    for (SearchHit h : result.hits()) {
      dev.engram.MemoryEntry e = h.entry();
      out.add(MemoryEntry.builder()
          .content(Content.builder().role("user").parts(List.of(Part.fromText(e.content()))).build())
          .author(e.source() != null ? e.source() : "memory")
          .timestamp(e.updatedAt())
          .build());
    }
    return SearchMemoryResponse.builder().setMemories(out).build();
  }

  private static String text(Optional<Content> content) {
    if (content.isEmpty() || content.get().parts().isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (Part p : content.get().parts().get()) {
      if (p.thought().orElse(false)) {
        continue;
      }
      String t = p.text().orElse("");
      if (!t.isBlank()) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append(t);
      }
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "EngramMemoryService[" + users + ", " + options + "]";
  }
}

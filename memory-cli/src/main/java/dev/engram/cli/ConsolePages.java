/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.ContextRequest;
import dev.engram.DirtyTopic;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryException;
import dev.engram.PreparedContext;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TopicSummary;
import dev.engram.cli.Overview.ScopeRow;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The console's pages, rendered on the server from the session's Engram under its grants. */
final class ConsolePages {
  static final String CSS = """
      :root { --fg: #1d232a; --muted: #5b6672; --line: #d8dde3; --accent: #2358a6; --bg: #f7f8fa; }
      * { box-sizing: border-box; }
      body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
             background: var(--bg); }
      header { background: #1f2d3d; color: #fff; padding: .6rem 1.5rem; display: flex; gap: 1.5rem;
               align-items: baseline; flex-wrap: wrap; }
      header strong { font-size: 1.1rem; letter-spacing: .02em; }
      header a { color: #cfe0ff; text-decoration: none; }
      header a:hover { text-decoration: underline; }
      header .who { margin-left: auto; color: #aab7c6; font-size: .85rem; }
      main { padding: 1rem 1.5rem 3rem; max-width: 1200px; }
      h1 { font-size: 1.35rem; margin: .4rem 0 1rem; }
      h2 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
      a { color: var(--accent); }
      table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
      th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
      th { background: #eef1f5; font-weight: 600; font-size: .85rem; color: var(--muted); }
      td.num { text-align: right; font-variant-numeric: tabular-nums; }
      code, pre, .id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .85rem; }
      pre { background: #fff; border: 1px solid var(--line); padding: .75rem; white-space: pre-wrap;
            word-break: break-word; margin: .4rem 0; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; background: #fff;
           border: 1px solid var(--line); padding: .75rem; margin: .4rem 0; }
      dt { color: var(--muted); }
      dd { margin: 0; }
      .badge { display: inline-block; padding: 0 .45rem; border-radius: .6rem; font-size: .78rem;
               background: #e6ebf1; color: #34404c; }
      .badge.active { background: #dff3e4; color: #176a2e; }
      .badge.retired { background: #f6e3e3; color: #8a1f1f; }
      .badge.superseded { background: #ececec; color: #555; }
      .badge.dirty { background: #fff1d1; color: #7a5200; }
      .event { background: #fff; border: 1px solid var(--line); padding: .6rem .8rem; margin: .6rem 0; }
      .event h3 { font-size: .95rem; margin: 0 0 .3rem; display: flex; gap: .8rem; align-items: baseline;
                  flex-wrap: wrap; }
      .event .meta { color: var(--muted); font-size: .85rem; }
      .diff del { background: #fbe0e0; color: #7a1212; text-decoration: line-through; }
      .diff ins { background: #dcf4e0; color: #115c22; text-decoration: none; }
      form.inline { display: inline-flex; gap: .4rem; margin: 0; }
      form.search { display: flex; gap: .5rem; margin: .5rem 0 1rem; flex-wrap: wrap; }
      input[type=text], input[type=number], select { padding: .35rem .5rem; border: 1px solid #b9c2cc;
               border-radius: 4px; font: inherit; }
      input[name=q] { min-width: 22rem; }
      button { padding: .35rem .8rem; border: 1px solid var(--accent); background: var(--accent); color: #fff;
               border-radius: 4px; font: inherit; cursor: pointer; }
      button.secondary { background: #fff; color: var(--accent); }
      .notice { background: #e8f1ff; border: 1px solid #b7cdf2; padding: .5rem .8rem; margin: .5rem 0 1rem; }
      .error { background: #fde8e8; border: 1px solid #f0b4b4; padding: .5rem .8rem; margin: .5rem 0 1rem; }
      .muted { color: var(--muted); }
      """;

  /**
   * What a handler answers: a page with its status, or a redirect after a change.
   *
   * @param status HTTP status of the page
   * @param body the page
   * @param redirect where to send the browser instead (303), or null
   */
  record Response(int status, String body, @Nullable String redirect) {
    static Response ok(String body) {
      return new Response(200, body, null);
    }

    static Response seeOther(String location) {
      return new Response(303, "", location);
    }
  }

  private final Session session;
  private final String csrf;
  private final ReviewPages review;

  ConsolePages(Session session, String csrf) {
    this.session = session;
    this.csrf = csrf;
    this.review = new ReviewPages(session, csrf);
  }

  private String who() {
    return session.describe() + " · " + String.join(", ", grants().namespaces());
  }

  private Grants grants() {
    return session.grants();
  }

  Response get(String path, Map<String, String> q) {
    try {
      return switch (path) {
        case "/" -> Response.ok(home());
        case "/scope" -> Response.ok(scope(required(q, "s")));
        case "/entries" -> Response.ok(entries(required(q, "s"), q.get("t"), "1".equals(q.get("all"))));
        case "/entry" -> Response.ok(entry(required(q, "id"), q.get("done")));
        case "/search" -> Response.ok(search(q.getOrDefault("q", ""), q.getOrDefault("mode", "auto")));
        case "/context" -> Response.ok(context(q.getOrDefault("q", ""), q.getOrDefault("bytes", "")));
        case "/curation" -> Response.ok(curation());
        case "/usage" -> Response.ok(usage(q.getOrDefault("from", ""), q.getOrDefault("to", "")));
        case ReviewPages.PATH -> Response.ok(page("Review", review.page(q.get("done")), who()));
        default -> new Response(404, page("Not found", "<p>No such page.</p>", who()), null);
      };
    } catch (MemoryException e) {
      return failure(e);
    } catch (UsageException | IllegalArgumentException e) {
      return new Response(400, page("Bad request", error(e.getMessage()), who()), null);
    }
  }

  Response post(String path, Map<String, String> form) {
    try {
      String reason = form.getOrDefault("reason", "").strip();
      dev.engram.ChangeOptions opts = dev.engram.ChangeOptions.builder().source("engram-console").origin("console").build();
      if (!reason.isEmpty()) {
        opts = opts.toBuilder().reason(reason).build();
      }
      switch (path) {
        case ReviewPages.APPROVE, ReviewPages.REJECT -> {
          return Response.seeOther(review.decide(path, form));
        }
        case "/rollback" -> {
          MemoryEntry e = session.engram().rollback(grants(), required(form, "event"), opts);
          return Response.seeOther("/entry?id=" + Html.url(e.entryId()) + "&done="
              + Html.url("Rolled back: version " + e.version() + " is now current."));
        }
        case "/retire", "/reactivate" -> {
          MemoryEntry current = session.resolve(required(form, "id"));
          MemoryEntry e = path.equals("/retire")
              ? session.engram().retire(grants(), current.citation(), opts)
              : session.engram().reactivate(grants(), current.citation(), opts);
          return Response.seeOther("/entry?id=" + Html.url(e.entryId()) + "&done="
              + Html.url(path.equals("/retire") ? "Retired." : "Reactivated."));
        }
        default -> {
          return new Response(404, page("Not found", "<p>No such action.</p>", who()), null);
        }
      }
    } catch (MemoryException e) {
      return failure(e);
    } catch (UsageException | IllegalArgumentException e) {
      return new Response(400, page("Bad request", error(e.getMessage()), who()), null);
    }
  }

  private Response failure(MemoryException e) {
    return new Response(Console.status(e), page("Cannot do that", error(e.getMessage()), who()), null);
  }

  private static String required(Map<String, String> q, String name) {
    String v = q.get(name);
    if (v == null || v.isBlank()) {
      throw new UsageException("the request needs a '" + name + "' parameter");
    }
    return v;
  }

  private static String error(@Nullable String message) {
    return "<div class=\"error\">" + Html.esc(message == null ? "failed" : message) + "</div>";
  }

  // ---- pages

  private String home() {
    List<ScopeRow> rows = Overview.rows(session.store(), Overview.visibleScopes(session));
    Html h = new Html().raw("<h1>Scopes</h1>");
    if (rows.isEmpty()) {
      h.raw("<p class=\"muted\">Nothing stored in the scopes these grants can see.</p>");
    } else {
      h.raw("<table><thead><tr><th>scope</th><th>revision</th><th>active</th><th>retired</th><th>superseded</th>"
          + "<th>topics</th><th>uncurated</th></tr></thead><tbody>");
      for (ScopeRow r : rows) {
        h.raw("<tr><td>").link("/scope?s=" + Html.url(r.scope()), r.scope()).raw("</td>")
            .raw("<td class=\"num\">").text(r.revision()).raw("</td>")
            .raw("<td class=\"num\">").text(r.count(EntryStatus.ACTIVE)).raw("</td>")
            .raw("<td class=\"num\">").text(r.count(EntryStatus.RETIRED)).raw("</td>")
            .raw("<td class=\"num\">").text(r.count(EntryStatus.SUPERSEDED)).raw("</td>")
            .raw("<td class=\"num\">").text(r.topics()).raw("</td>")
            .raw("<td class=\"num\">").text(r.dirtyTopics()).raw("</td></tr>");
      }
      h.raw("</tbody></table>");
    }
    h.raw("<h2>Search</h2>").raw(searchForm("", SearchMode.AUTO));
    return page("Scopes", h.toString(), who());
  }

  private void requireVisible(String scope) {
    if (!grants().canSee(scope)) {
      throw new dev.engram.NotFoundException("scope " + scope + " not found or not visible to " + grants().namespaces());
    }
  }

  private String scope(String scope) {
    requireVisible(scope);
    Html h = new Html().raw("<h1>Scope <code>").text(scope).raw("</code></h1>");
    h.raw("<p>").link("/entries?s=" + Html.url(scope), "All active entries").raw(" · ")
        .link("/entries?s=" + Html.url(scope) + "&all=1", "including retired and superseded").raw("</p>");
    h.raw("<table><thead><tr><th>topic</th><th>entries</th><th>blurb</th><th>last change</th><th>curation</th>"
        + "</tr></thead><tbody>");
    for (TopicSummary t : session.engram().scan(grants())) {
      if (!t.scope().equals(scope)) {
        continue;
      }
      h.raw("<tr><td>").link("/entries?s=" + Html.url(scope) + "&t=" + Html.url(t.topic()), t.topic()).raw("</td>")
          .raw("<td class=\"num\">").text(t.count()).raw("</td><td>").text(t.blurb() == null ? "" : t.blurb())
          .raw("</td><td>").text(t.lastUpdatedAt() == null ? "" : t.lastUpdatedAt()).raw("</td><td>")
          .raw(t.hasUncuratedWrites() ? "<span class=\"badge dirty\">uncurated writes</span>" : "curated")
          .raw("</td></tr>");
    }
    h.raw("</tbody></table>");
    return page("Scope " + scope, h.toString(), who());
  }

  private String entries(String scope, @Nullable String topic, boolean all) {
    requireVisible(scope);
    ListOptions.Builder b = ListOptions.builder().scope(scope).includeRetired(all).includeSuperseded(all);
    if (topic != null && !topic.isBlank()) {
      b.topic(topic);
    }
    List<MemoryEntry> list = session.engram().list(grants(), b.build());
    Html h = new Html().raw("<h1>").text(topic == null ? "Entries" : "Topic " + topic).raw(" in <code>")
        .text(scope).raw("</code></h1>");
    h.raw("<p>").link("/scope?s=" + Html.url(scope), "← topics of " + scope).raw("</p>");
    if (list.isEmpty()) {
      h.raw("<p class=\"muted\">No entries.</p>");
    } else {
      entryTable(h, list);
    }
    return page("Entries", h.toString(), who());
  }

  private static void entryTable(Html h, List<MemoryEntry> list) {
    h.raw("<table><thead><tr><th>content</th><th>topics</th><th>status</th><th>version</th><th>updated</th>"
        + "</tr></thead><tbody>");
    for (MemoryEntry e : list) {
      String ref = e.status() == EntryStatus.SUPERSEDED ? e.versionId() : e.entryId();
      h.raw("<tr><td>").link("/entry?id=" + Html.url(ref), shorten(e.content(), 160)).raw("</td><td>")
          .text(String.join(", ", e.topics())).raw("</td><td>").raw(badge(e.status())).raw("</td><td class=\"num\">")
          .text(e.version()).raw("</td><td>").text(e.updatedAt()).raw("</td></tr>");
    }
    h.raw("</tbody></table>");
  }

  private String entry(String ref, @Nullable String done) {
    MemoryEntry shown = session.resolve(ref);
    MemoryEntry current = session.engram().get(grants(), shown.entryId());
    Html h = new Html();
    if (done != null && !done.isBlank()) {
      h.raw("<div class=\"notice\">").text(done).raw("</div>");
    }
    h.raw("<h1>Entry <span class=\"id\">").text(shown.entryId()).raw("</span> ").raw(badge(current.status()))
        .raw("</h1>");
    if (!shown.versionId().equals(current.versionId())) {
      h.raw("<p class=\"notice\">This is version ").text(shown.version()).raw("; the current version is ")
          .link("/entry?id=" + Html.url(current.entryId()), "version " + current.version()).raw(".</p>");
    }
    h.raw("<pre class=\"content\" id=\"content\">").text(shown.content()).raw("</pre>");
    h.raw("<dl>");
    dd(h, "scope", null).link("/scope?s=" + Html.url(shown.scope()), shown.scope()).raw("</dd>");
    dd(h, "version", shown.version() + " (" + shown.versionId() + ")").raw("</dd>");
    dd(h, "topics", String.join(", ", shown.topics())).raw("</dd>");
    dd(h, "type", shown.type().wireName()).raw("</dd>");
    dd(h, "priority", shown.priority()).raw("</dd>");
    if (shown.path() != null) {
      dd(h, "path", shown.path()).raw("</dd>");
    }
    if (shown.disclosure() != null) {
      dd(h, "disclosure", shown.disclosure()).raw("</dd>");
    }
    if (!shown.glossary().isEmpty()) {
      dd(h, "glossary", String.join(", ", shown.glossary())).raw("</dd>");
    }
    if (shown.source() != null) {
      dd(h, "source", shown.source()).raw("</dd>");
    }
    dd(h, "created", shown.createdAt()).raw("</dd>");
    dd(h, "this version", "made in revision " + shown.createdInRevision() + ", last changed " + shown.updatedAt())
        .raw("</dd>");
    dd(h, "citation", shown.citation().render()).raw("</dd>");
    h.raw("</dl>");
    if (current.status() == EntryStatus.ACTIVE) {
      h.postForm("/retire", csrf, "Retire", true, "id", current.entryId());
    } else if (current.status() == EntryStatus.RETIRED) {
      h.postForm("/reactivate", csrf, "Reactivate", true, "id", current.entryId());
    }

    h.raw("<h2>Versions</h2><table id=\"versions\"><thead><tr><th>version</th><th>status</th><th>revision</th>"
        + "<th>content</th></tr></thead><tbody>");
    for (MemoryEntry v : session.store().versions(shown.entryId())) {
      if (!v.scope().equals(shown.scope())) {
        continue;
      }
      h.raw("<tr><td class=\"num\">").link("/entry?id=" + Html.url(v.versionId()), "v" + v.version())
          .raw("</td><td>").raw(badge(v.status())).raw("</td><td class=\"num\">").text(v.createdInRevision())
          .raw("</td><td>")
          .text(shorten(v.content(), 160)).raw("</td></tr>");
    }
    h.raw("</tbody></table>");

    h.raw("<h2>History</h2><div id=\"history\">");
    List<MemoryEvent> events = session.engram().history(grants(), shown.entryId());
    for (int i = events.size() - 1; i >= 0; i--) {
      event(h, events.get(i), current);
    }
    h.raw("</div>");
    return page("Entry " + shown.entryId(), h.toString(), who());
  }

  private void event(Html h, MemoryEvent ev, MemoryEntry current) {
    h.raw("<div class=\"event\" id=\"event-").text(ev.eventId()).raw("\"><h3><span class=\"kind\">")
        .text(ev.kind().name().toLowerCase(Locale.ROOT)).raw("</span>");
    if (ev.after() != null) {
      h.raw("<span>→ v").text(ev.after().version()).raw("</span>");
    }
    h.raw("<span class=\"meta\">revision ").text(ev.revision()).raw(" · ").text(ev.at());
    if (ev.actor() != null) {
      h.raw(" · by ").text(ev.actor());
    }
    h.raw("</span>");
    boolean restorable = ev.kind() == EventKind.CREATE || ev.kind() == EventKind.UPDATE;
    if (restorable && ev.after() != null) {
      if (ev.after().versionId().equals(current.versionId())) {
        h.raw("<span class=\"badge\">current</span>");
      } else {
        h.postForm("/rollback", csrf, "Roll back to this version", false, "event", ev.eventId());
      }
    }
    h.raw("</h3>");
    if (ev.reason() != null) {
      h.raw("<div class=\"meta\">reason: ").text(ev.reason()).raw("</div>");
    }
    List<Diff.FieldChange> fields = Diff.fields(ev.before(), ev.after());
    if (!fields.isEmpty() && ev.before() != null) {
      h.raw("<table><thead><tr><th>field</th><th>before</th><th>after</th></tr></thead><tbody>");
      for (Diff.FieldChange f : fields) {
        h.raw("<tr><td>").text(f.field()).raw("</td><td>").text(f.before()).raw("</td><td>").text(f.after())
            .raw("</td></tr>");
      }
      h.raw("</tbody></table>");
    }
    String before = ev.before() == null ? null : ev.before().content();
    String after = ev.after() == null ? null : ev.after().content();
    if (before == null || !before.equals(after)) {
      h.raw("<pre class=\"diff\">");
      for (Diff.Piece p : Diff.content(before, after)) {
        switch (p.op()) {
          case SAME -> h.text(p.text());
          case DELETED -> h.raw("<del>").text(p.text()).raw("</del>");
          case INSERTED -> h.raw("<ins>").text(p.text()).raw("</ins>");
        }
      }
      h.raw("</pre>");
    }
    h.raw("</div>");
  }

  private String search(String query, String modeName) {
    SearchMode mode = parseMode(modeName);
    Html h = new Html().raw("<h1>Search</h1>").raw(searchForm(query, mode));
    if (!query.isBlank()) {
      try {
        SearchResult r = session.engram().search(grants(), SearchRequest.builder(query).mode(mode).limit(50).build());
        h.raw("<p id=\"search-summary\">mode <strong>").text(lower(r.used())).raw("</strong>");
        if (r.used() != r.requested()) {
          h.raw(" (asked for ").text(lower(r.requested())).raw(")");
        }
        if (r.fallbackReason() != null) {
          h.raw(" — fell back: ").text(r.fallbackReason());
        }
        h.raw(" · ").text(r.hits().size()).raw(r.hits().size() == 1 ? " hit" : " hits").raw("</p>");
        if (!r.hits().isEmpty()) {
          h.raw("<table id=\"hits\"><thead><tr><th>#</th><th>content</th><th>matched by</th><th>score</th>"
              + "<th>scope</th></tr></thead><tbody>");
          int rank = 1;
          for (SearchHit hit : r.hits()) {
            h.raw("<tr><td class=\"num\">").text(rank++).raw("</td><td>")
                .link("/entry?id=" + Html.url(hit.entry().entryId()), shorten(hit.entry().content(), 160))
                .raw("</td><td class=\"matched\">").text(ReadCommands.ranks(hit)).raw("</td><td class=\"num\">")
                .text(ReadCommands.score(hit.score())).raw("</td><td>").text(hit.entry().scope())
                .raw("</td></tr>");
          }
          h.raw("</tbody></table>");
        }
      } catch (MemoryException e) {
        h.raw(error(e.getMessage()));
      }
    }
    return page("Search", h.toString(), who());
  }

  private static SearchMode parseMode(String name) {
    for (SearchMode m : SearchMode.values()) {
      if (m.name().equalsIgnoreCase(name.strip())) {
        return m;
      }
    }
    throw new UsageException("unknown search mode '" + name + "'; use auto, fts, vector or hybrid");
  }

  private static String searchForm(String query, SearchMode mode) {
    Html h = new Html().raw("<form class=\"search\" method=\"get\" action=\"/search\">")
        .raw("<input type=\"text\" name=\"q\" placeholder=\"search memory\" value=\"").text(query).raw("\">")
        .raw("<select name=\"mode\">");
    for (SearchMode m : SearchMode.values()) {
      h.raw("<option value=\"").text(lower(m)).raw("\"").raw(m == mode ? " selected" : "").raw(">").text(lower(m))
          .raw("</option>");
    }
    return h.raw("</select><button type=\"submit\">Search</button></form>").toString();
  }

  private String context(String query, String bytesText) {
    int bytes = ContextRequest.DEFAULT_MAX_BYTES;
    if (!bytesText.isBlank()) {
      try {
        bytes = Integer.parseInt(bytesText.strip());
      } catch (NumberFormatException e) {
        throw new UsageException("bytes must be a whole number, was '" + bytesText + "'");
      }
    }
    Html h = new Html().raw("<h1>Prepared context</h1>")
        .raw("<form class=\"search\" method=\"get\" action=\"/context\">")
        .raw("<input type=\"text\" name=\"q\" placeholder=\"what the agent is about to do\" value=\"").text(query)
        .raw("\"><input type=\"number\" name=\"bytes\" min=\"512\" max=\"32768\" value=\"").text(bytes)
        .raw("\"><button type=\"submit\">Prepare</button></form>");
    if (!query.isBlank()) {
      PreparedContext c = session.engram().prepareContext(grants(), ContextRequest.of(query, bytes));
      h.raw("<p id=\"context-summary\">").text(lower(c.status())).raw(": <strong>").text(c.contentBytes())
          .raw("</strong> of ").text(bytes).raw(" bytes · ").text(c.citations().size())
          .raw(c.citations().size() == 1 ? " citation" : " citations").raw("</p>");
      if (c.content() != null) {
        h.raw("<pre id=\"context\">").text(c.content()).raw("</pre>");
      }
      if (!c.citations().isEmpty() || !c.experience().isEmpty()) {
        h.raw("<ul>");
        for (dev.engram.Citation ci : c.citations()) {
          h.raw("<li>").link("/entry?id=" + Html.url(ci.versionId()), ci.render()).raw("</li>");
        }
        for (dev.engram.ExperienceCitation xc : c.experience()) {
          h.raw("<li class=\"experience\">experience ").text(xc.render()).raw("</li>");
        }
        h.raw("</ul>");
      }
    }
    return page("Context", h.toString(), who());
  }

  private String curation() {
    Html h = new Html().raw("<h1>Curation</h1>")
        .raw("<p class=\"muted\">Topics with writes newer than their last curation pass, in the scopes these"
            + " grants can see.</p>");
    List<DirtyTopic> dirty = session.engram().operator().listDirtyTopics(1000).stream()
        .filter(d -> grants().canSee(d.scope())).toList();
    if (dirty.isEmpty()) {
      h.raw("<p id=\"curation-status\">Every topic is curated.</p>");
    } else {
      h.raw("<table id=\"dirty\"><thead><tr><th>scope</th><th>topic</th><th>last write</th><th>last curated</th>"
          + "</tr></thead><tbody>");
      for (DirtyTopic d : dirty) {
        h.raw("<tr><td>").link("/scope?s=" + Html.url(d.scope()), d.scope()).raw("</td><td>")
            .link("/entries?s=" + Html.url(d.scope()) + "&t=" + Html.url(d.topic()), d.topic())
            .raw("</td><td class=\"num\">revision ").text(d.lastWriteRevision()).raw("</td><td class=\"num\">")
            .text(d.lastCuratedRevision() == 0 ? "never" : "revision " + d.lastCuratedRevision()).raw("</td></tr>");
      }
      h.raw("</tbody></table>");
    }
    return page("Curation", h.toString(), who());
  }

  private String usage(String from, String to) {
    dev.engram.ModelUsageQuery.Builder query = dev.engram.ModelUsageQuery.builder();
    if (!from.isBlank()) {
      query.from(day("from", from));
    }
    if (!to.isBlank()) {
      query.to(day("to", to));
    }
    List<dev.engram.ModelUsageRow> rows = session.engram().operator().modelUsage(grants(), query.build());
    Html h = new Html().raw("<h1>Model usage</h1>")
        .raw("<p class=\"muted\">The reasoner's model calls per scope and day (UTC), in the granted scopes and"
            + " every scope below them.</p>")
        .raw("<form class=\"search\" method=\"get\" action=\"/usage\"><label>from <input type=\"text\""
            + " name=\"from\" placeholder=\"yyyy-mm-dd\" value=\"").text(from).raw("\"></label><label>to <input"
            + " type=\"text\" name=\"to\" placeholder=\"yyyy-mm-dd\" value=\"").text(to).raw("\"></label>"
            + "<button type=\"submit\">Show</button></form>");
    if (rows.isEmpty()) {
      h.raw("<p id=\"usage-status\">No model usage recorded.</p>");
      return page("Usage", h.toString(), who());
    }
    long calls = 0;
    long in = 0;
    long out = 0;
    long failures = 0;
    h.raw("<table id=\"usage\"><thead><tr><th>scope</th><th>day</th><th>provider</th><th>model</th><th>job</th>"
        + "<th>calls</th><th>input tokens</th><th>output tokens</th><th>failed</th></tr></thead><tbody>");
    for (dev.engram.ModelUsageRow r : rows) {
      calls += r.calls();
      in += r.inputTokens();
      out += r.outputTokens();
      failures += r.failures();
      h.raw("<tr><td>").link("/scope?s=" + Html.url(r.scope()), r.scope()).raw("</td><td>").text(r.day())
          .raw("</td><td>").text(r.provider()).raw("</td><td>").text(r.model()).raw("</td><td>").text(r.job())
          .raw("</td><td class=\"num\">").text(r.calls()).raw("</td><td class=\"num\">").text(r.inputTokens())
          .raw("</td><td class=\"num\">").text(r.outputTokens()).raw("</td><td class=\"num\">").text(r.failures())
          .raw("</td></tr>");
    }
    h.raw("</tbody><tfoot><tr><th colspan=\"5\">total</th><td class=\"num\" id=\"usage-calls\">").text(calls)
        .raw("</td><td class=\"num\" id=\"usage-input\">").text(in).raw("</td><td class=\"num\">").text(out)
        .raw("</td><td class=\"num\">").text(failures).raw("</td></tr></tfoot></table>");
    return page("Usage", h.toString(), who());
  }

  private static java.time.LocalDate day(String field, String value) {
    try {
      return java.time.LocalDate.parse(value.strip());
    } catch (java.time.format.DateTimeParseException e) {
      throw new UsageException(field + " is '" + value + "'; expected a day as yyyy-mm-dd");
    }
  }

  // ---- pieces

  private static Html dd(Html h, String term, @Nullable Object value) {
    h.raw("<dt>").text(term).raw("</dt><dd>");
    if (value != null) {
      h.text(value);
    }
    return h;
  }

  private static String badge(EntryStatus s) {
    String name = lower(s);
    return "<span class=\"badge " + name + "\">" + name + "</span>";
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static String shorten(String s, int max) {
    String one = s.replace('\n', ' ');
    return one.codePointCount(0, one.length()) <= max ? one : one.substring(0, one.offsetByCodePoints(0, max - 1)) + "…";
  }

  /** A whole page: head with the stylesheet, navigation, and the body markup. */
  static String page(String title, String body, @Nullable String who) {
    return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>" + Html.esc(title) + " · Engram</title><link rel=\"stylesheet\" href=\"/style.css\"></head><body>"
        + "<header><strong>Engram</strong><a href=\"/\">Scopes</a><a href=\"/search\">Search</a>"
        + "<a href=\"/context\">Context</a><a href=\"/curation\">Curation</a><a href=\"/review\">Review</a>"
        + "<a href=\"/usage\">Usage</a>"
        + (who == null ? "" : "<span class=\"who\">" + Html.esc(who) + "</span>")
        + "</header><main>" + body + "</main></body></html>";
  }
}

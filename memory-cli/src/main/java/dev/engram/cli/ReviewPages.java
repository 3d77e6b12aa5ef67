/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.ApproveRequest;
import dev.engram.RejectRequest;
import dev.engram.ReviewChange;
import dev.engram.ReviewDetail;
import dev.engram.ReviewItem;
import dev.engram.ReviewOutcome;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The console's review page: every pending item of the visible scopes with its diff against the current
 * state, and per item an approve form and a reject form (reason required). Both forms carry the CSRF
 * token and the item version shown, so a decision on a stale page is refused and changes nothing.
 */
final class ReviewPages {
  static final String PATH = "/review";
  static final String APPROVE = "/review/approve";
  static final String REJECT = "/review/reject";

  private final Session session;
  private final String csrf;

  ReviewPages(Session session, String csrf) {
    this.session = session;
    this.csrf = csrf;
  }

  /** The page body: pending items with diffs and forms, and the notice of the last decision. */
  String page(@Nullable String done) {
    Html h = new Html().raw("<h1>Review</h1>");
    if (done != null && !done.isBlank()) {
      h.raw("<div class=\"notice\" id=\"review-done\">").text(done).raw("</div>");
    }
    h.raw("<p class=\"muted\">Model-made changes waiting for a person: new experience, and curation ops or"
        + " extracted memories when review is on for them. Nothing here reaches search or context before it is"
        + " approved.</p>");
    List<ReviewItem> items = session.engram().review().list(session.grants());
    if (items.isEmpty()) {
      h.raw("<p id=\"review-status\">Nothing waits for review.</p>");
      return h.toString();
    }
    for (ReviewItem item : items) {
      item(h, session.engram().review().get(session.grants(), item.id()));
    }
    return h.toString();
  }

  private void item(Html h, ReviewDetail d) {
    ReviewItem i = d.item();
    h.raw("<div class=\"event review-item\" id=\"item-").text(i.id()).raw("\"><h3><span class=\"badge\">")
        .text(i.kind().name().toLowerCase(Locale.ROOT)).raw("</span><span class=\"summary\">")
        .text(ReviewText.summary(i)).raw("</span><span class=\"meta\">").text(i.scope()).raw(" · version ")
        .text(i.version()).raw(" · proposed by ").text(i.proposedBy()).raw(" · ").text(i.createdAt())
        .raw("</span></h3>");
    if (!i.evidence().isEmpty()) {
      h.raw("<div class=\"meta\">evidence: ").text(String.join(", ", i.evidence())).raw("</div>");
    }
    for (String w : d.warnings()) {
      h.raw("<div class=\"error warning\">").text(w).raw("</div>");
    }
    if (!d.changes().isEmpty()) {
      h.raw("<table class=\"changes\"><thead><tr><th>subject</th><th>field</th><th>change</th></tr></thead><tbody>");
      for (ReviewChange c : d.changes()) {
        h.raw("<tr><td>").text(c.subject()).raw("</td><td>").text(c.field()).raw("</td><td><pre class=\"diff\">");
        for (Diff.Piece p : Diff.content(c.before(), c.after())) {
          switch (p.op()) {
            case SAME -> h.text(p.text());
            case DELETED -> h.raw("<del>").text(p.text()).raw("</del>");
            case INSERTED -> h.raw("<ins>").text(p.text()).raw("</ins>");
          }
        }
        h.raw("</pre></td></tr>");
      }
      h.raw("</tbody></table>");
    }
    String version = String.valueOf(i.version());
    h.raw("<div class=\"decide\">");
    h.postForm(APPROVE, csrf, "Approve", false, "id", i.id(), "version", version);
    h.raw("<form method=\"post\" action=\"").text(REJECT).raw("\" class=\"inline\">")
        .raw("<input type=\"hidden\" name=\"csrf\" value=\"").text(csrf).raw("\">")
        .raw("<input type=\"hidden\" name=\"id\" value=\"").text(i.id()).raw("\">")
        .raw("<input type=\"hidden\" name=\"version\" value=\"").text(version).raw("\">")
        .raw("<input type=\"text\" name=\"reason\" placeholder=\"reason (required)\" required maxlength=\"")
        .text(ReviewItem.MAX_REASON_CHARS).raw("\">")
        .raw("<button type=\"submit\" class=\"secondary\">Reject</button></form>");
    h.raw("</div></div>");
  }

  /** Runs a decision posted from the page; returns where to send the browser. */
  String decide(String path, Map<String, String> form) {
    String id = required(form, "id");
    long version;
    try {
      version = Long.parseLong(required(form, "version").strip());
    } catch (NumberFormatException e) {
      throw new UsageException("version must be a whole number");
    }
    String message;
    if (path.equals(APPROVE)) {
      ReviewOutcome o = session.engram().review().approve(session.grants(), id,
          ApproveRequest.builder(version, ReviewText.REVIEWER).origin("console").build());
      message = "Approved " + ReviewText.summary(o.item())
          + (o.curationRunId() == null ? "." : ". Undo it with the curation run id " + o.curationRunId() + ".");
    } else {
      String reason = form.getOrDefault("reason", "");
      ReviewItem rejected = session.engram().review().reject(session.grants(), id,
          RejectRequest.of(version, ReviewText.REVIEWER, reason));
      message = "Rejected " + ReviewText.summary(rejected) + ".";
    }
    return PATH + "?done=" + Html.url(message);
  }

  private static String required(Map<String, String> form, String name) {
    String v = form.get(name);
    if (v == null || v.isBlank()) {
      throw new UsageException("the request needs a '" + name + "' parameter");
    }
    return v;
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The namespaces that trusted application code lets one caller use. A model never sees or chooses a
 * grant. Read visibility is each grant plus its ancestors (never siblings or descendants); writes go
 * to a grant or, when the {@link WritePolicy} allows, below it or up to its ancestors.
 *
 * <p>Immutable and validated on construction: an empty list, blanks, leading or trailing {@code /},
 * {@code //}, {@code .}/{@code ..} segments, {@code *} and whitespace are rejected with an
 * {@link InvalidGrantException}.
 */
public final class Grants {
  /** The most namespaces one {@code Grants} may hold. */
  public static final int MAX_GRANTS = 64;

  private final List<String> namespaces;
  private final Set<String> visible;

  private Grants(List<String> namespaces) {
    this.namespaces = namespaces;
    LinkedHashSet<String> v = new LinkedHashSet<>();
    for (String ns : namespaces) {
      v.addAll(Namespaces.selfAndAncestors(ns));
    }
    this.visible = Collections.unmodifiableSet(v);
  }

  /**
   * Grants of one or more namespaces, in order; duplicates are kept once.
   *
   * @param first the first namespace
   * @param more further namespaces
   * @return the grants
   * @throws NullPointerException if {@code first} or {@code more} is null
   * @throws InvalidGrantException if a namespace is null or malformed ({@link Namespaces#validate}), or there
   *     are more than {@value #MAX_GRANTS}
   */
  public static Grants of(String first, String... more) {
    Objects.requireNonNull(first, "grant");
    Objects.requireNonNull(more, "grants");
    List<String> all = new ArrayList<>(1 + more.length);
    all.add(first);
    Collections.addAll(all, more);
    return of(all);
  }

  /**
   * Grants of these namespaces, in order; duplicates are kept once.
   *
   * @param namespaces 1 to {@value #MAX_GRANTS} namespaces
   * @return the grants
   * @throws NullPointerException if {@code namespaces} is null
   * @throws InvalidGrantException if the list is empty or too long, or a namespace is null or malformed
   *     ({@link Namespaces#validate})
   */
  public static Grants of(List<String> namespaces) {
    Objects.requireNonNull(namespaces, "grants");
    if (namespaces.isEmpty()) {
      throw new InvalidGrantException("grants", "at least one grant is required");
    }
    if (namespaces.size() > MAX_GRANTS) {
      throw new InvalidGrantException(
          "grants", namespaces.size() + " grants given; the limit is " + MAX_GRANTS);
    }
    LinkedHashSet<String> unique = new LinkedHashSet<>();
    for (int i = 0; i < namespaces.size(); i++) {
      String ns = namespaces.get(i);
      if (ns == null) {
        throw new InvalidGrantException("grants[" + i + "]", "grant is null");
      }
      unique.add(Namespaces.validate("grants[" + i + "]", ns));
    }
    return new Grants(List.copyOf(unique));
  }

  /**
   * The one way trusted code turns an id it received (a user id, a chat framework's conversation or
   * memory id) into grants: the id is put into a namespace template such as {@code app/user/{id}}.
   * The id must be in the {@linkplain Template#ID_ALPHABET id alphabet}: 1 to
   * {@value Template#MAX_ID_LENGTH} of ASCII letters, digits, {@code _ . : -}, starting with a letter
   * or digit. That is also the alphabet of a captured source's session id, so an id that names grants
   * can name its conversation too, and no id can reach another namespace ({@code /}), an ancestor
   * ({@code ..}) or a look-alike (non-ASCII). Anything else fails closed with an
   * {@link InvalidGrantException}.
   *
   * <pre>{@code
   * Grants.Template users = Grants.template("app/user/{id}");
   * Grants alice = users.grants("alice");   // app/user/alice
   * }</pre>
   *
   * @param template a namespace with exactly one {@value Template#PLACEHOLDER}
   * @return the template
   * @throws InvalidGrantException if the template does not hold the placeholder exactly once, or is
   *     not a namespace once filled
   * @throws NullPointerException if {@code template} is null
   */
  public static Template template(String template) {
    return Template.of(template);
  }

  /**
   * A namespace template with one {@value #PLACEHOLDER}, made by {@link Grants#template(String)}:
   * maps an id to the grants of that id. Immutable and thread-safe.
   */
  public static final class Template {
    /** The placeholder a template replaces with the id. */
    public static final String PLACEHOLDER = "{id}";
    /** The most characters of an id. */
    public static final int MAX_ID_LENGTH = 128;
    /** The id alphabet, as a sentence for messages and documentation. */
    public static final String ID_ALPHABET = "1-" + MAX_ID_LENGTH
        + " of ASCII letters, digits, '_', '.', ':', '-', starting with a letter or digit";
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0," + (MAX_ID_LENGTH - 1) + "}");
    private static final int ECHO_CHARS = 40;

    private final String template;
    private final List<String> refused;
    private final List<String> reasons;

    private Template(String template, List<String> refused, List<String> reasons) {
      this.template = template;
      this.refused = refused;
      this.reasons = reasons;
    }

    static Template of(String template) {
      Objects.requireNonNull(template, "template");
      int at = template.indexOf(PLACEHOLDER);
      if (at < 0 || template.indexOf(PLACEHOLDER, at + 1) >= 0) {
        throw new InvalidGrantException("template", "'" + shown(template) + "' must contain " + PLACEHOLDER
            + " exactly once, e.g. app/user/" + PLACEHOLDER);
      }
      Namespaces.validate("template", template.replace(PLACEHOLDER, "x"));
      return new Template(template, List.of(), List.of());
    }

    /**
     * The grants of one id: the template with the id in place of {@value #PLACEHOLDER}.
     *
     * @param id the id, as trusted code received it
     * @return the grants, one namespace
     * @throws InvalidGrantException if the id is not in the {@linkplain #ID_ALPHABET alphabet}, is
     *     refused by {@link #refusing}, or makes the namespace too long
     * @throws NullPointerException if {@code id} is null
     */
    public Grants grants(String id) {
      Objects.requireNonNull(id, "id");
      if (!ID.matcher(id).matches()) {
        throw new InvalidGrantException("id", notAnId(id));
      }
      int i = refused.indexOf(id);
      if (i >= 0) {
        throw new InvalidGrantException("id", "'" + id + "' is refused: " + reasons.get(i));
      }
      return Grants.of(template.replace(PLACEHOLDER, id));
    }

    /**
     * This template, also refusing one id that is no identity of its own, such as the default id a
     * framework falls back to for every caller that has none (so that those callers would share one
     * namespace).
     *
     * @param id the id to refuse (compared exactly)
     * @param reason what the caller should do instead, for the error message
     * @return a new template; this one is unchanged
     * @throws NullPointerException if an argument is null
     */
    public Template refusing(String id, String reason) {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(reason, "reason");
      List<String> ids = new ArrayList<>(refused);
      List<String> why = new ArrayList<>(reasons);
      ids.add(id);
      why.add(reason);
      return new Template(template, List.copyOf(ids), List.copyOf(why));
    }

    /**
     * Checks that {@code id} is in the id alphabet ({@value #ID_ALPHABET}), the one every
     * template and every conversation of a chat adapter uses.
     *
     * @param field the argument name for the error message, e.g. {@code "conversationId"}
     * @param id the id
     * @return {@code id}, unchanged
     * @throws InvalidInputException if it is not; the message shows the id clipped and on one line
     * @throws NullPointerException if an argument is null
     */
    public static String requireId(String field, String id) {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(id, field);
      if (!ID.matcher(id).matches()) {
        throw new InvalidInputException(field, notAnId(id));
      }
      return id;
    }

    private static String notAnId(String id) {
      return "'" + shown(id) + "' is not an id (" + ID_ALPHABET + ")";
    }

    /** Caller text as an error message shows it: at most 40 code points, on one line, markers neutralised. */
    private static String shown(String text) {
      String clipped = text.codePointCount(0, text.length()) <= ECHO_CHARS ? text
          : text.substring(0, text.offsetByCodePoints(0, ECHO_CHARS)) + "…";
      return UntrustedText.inline(clipped);
    }

    /**
     * The template as given, e.g. {@code app/user/{id}}.
     *
     * @return the template text
     */
    @Override
    public String toString() {
      return template;
    }
  }

  /** @return the granted namespaces, in the order given, without duplicates */
  public List<String> namespaces() {
    return namespaces;
  }

  /** @return every namespace these grants can read: each grant and all its ancestors, in grant order */
  public Set<String> visibleScopes() {
    return visible;
  }

  /**
   * @param scope a namespace
   * @return whether these grants can read {@code scope}: it is a grant or an ancestor of one
   */
  public boolean canSee(String scope) {
    return visible.contains(scope);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Grants g && g.namespaces.equals(namespaces);
  }

  @Override
  public int hashCode() {
    return namespaces.hashCode();
  }

  @Override
  public String toString() {
    return "Grants" + namespaces;
  }
}

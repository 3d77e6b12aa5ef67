/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.EntryStateException;
import dev.engram.Experience;
import dev.engram.ExperienceListOptions;
import dev.engram.ExperienceRequest;
import dev.engram.ExperienceStatus;
import dev.engram.Experiences;
import dev.engram.Grants;
import dev.engram.IncubateOptions;
import dev.engram.IncubationReport;
import dev.engram.InvalidInputException;
import dev.engram.Namespaces;
import dev.engram.NotFoundException;
import dev.engram.VersionConflictException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Experience written by trusted code: record, revise, retire, read, erase; and the entry to incubation.
 * Every change commits through {@link Commits} in the experience's scope; visibility and write authority
 * are the grants', as for entries.
 */
final class ExperienceService implements Experiences {
  private final MemoryStore store;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final Commits commits;
  private final Incubation incubation;
  private final UnaryOperator<Grants> open;

  ExperienceService(MemoryStore store, EngineConfig config, GrantPolicy policy, Commits commits, Incubation incubation,
      UnaryOperator<Grants> open) {
    this.store = store;
    this.config = config;
    this.policy = policy;
    this.commits = commits;
    this.incubation = incubation;
    this.open = open;
  }

  /** Fails unless the store keeps experience and review items. */
  static void requireCapability(MemoryStore store, String what) {
    if (!store.capabilities().contains(StoreCapability.REVIEW)) {
      throw new CapabilityNotSupportedException(
          store.getClass().getSimpleName() + " does not declare REVIEW; " + what + " needs it");
    }
  }

  private Grants check(Grants grants) {
    Grants g = open.apply(grants);
    requireCapability(store, "experience");
    return g;
  }

  /** The four fields validated: normalized like content, non-blank, at most {@link Experience#MAX_FIELD_CHARS} characters. */
  static String field(String name, @Nullable String raw) {
    if (raw == null) {
      throw new InvalidInputException(name, "is missing");
    }
    String text = Text.content(name, raw, Experience.MAX_FIELD_CHARS * 4);
    int chars = text.codePointCount(0, text.length());
    if (chars > Experience.MAX_FIELD_CHARS) {
      throw new InvalidInputException(name, "is " + chars + " characters; the limit is " + Experience.MAX_FIELD_CHARS);
    }
    return text;
  }

  /** Evidence of an experience: at most {@link Experience#MAX_EVIDENCE} well-formed references. */
  static List<String> evidence(List<String> raw) {
    if (raw.size() > Experience.MAX_EVIDENCE) {
      throw new InvalidInputException("evidence", raw.size() + " references; the limit is " + Experience.MAX_EVIDENCE);
    }
    return Text.evidence("evidence", raw);
  }

  @Override
  public Experience record(Grants grants, ExperienceRequest request) {
    check(grants);
    Objects.requireNonNull(request, "request");
    String scope = request.scope() == null ? grants.namespaces().get(0) : Namespaces.validate("scope", request.scope());
    Fields f = fields(request);
    policy.requireWritable(grants, config.writePolicy(), scope);
    return commits.run(scope, c -> c.insertExperience(new Experience(Ids.next(), Ids.next(), 1, null, scope,
        f.situation, f.action, f.outcome, f.lesson, f.evidence, ExperienceStatus.ACTIVE, f.actor, f.reason, null,
        c.now(), c.now())));
  }

  @Override
  public Experience revise(Grants grants, String experienceId, long expectedVersion, ExperienceRequest request) {
    check(grants);
    Text.id("experienceId", experienceId);
    Objects.requireNonNull(request, "request");
    Fields f = fields(request);
    Experience cur = visibleCurrent(grants, experienceId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return commits.run(cur.scope(), c -> {
      Experience now = current(c.reader(), experienceId, expectedVersion);
      if (!now.isActive()) {
        throw new EntryStateException("experience " + experienceId + " is " + now.status()
            + "; only an ACTIVE experience can be revised");
      }
      if (now.situation().equals(f.situation) && now.action().equals(f.action) && now.outcome().equals(f.outcome)
          && now.lesson().equals(f.lesson) && now.evidence().equals(f.evidence)) {
        return now;
      }
      c.experienceStatus(now.versionId(), ExperienceStatus.SUPERSEDED);
      return c.insertExperience(new Experience(experienceId, Ids.next(), now.version() + 1, now.versionId(),
          now.scope(), f.situation, f.action, f.outcome, f.lesson, f.evidence, ExperienceStatus.ACTIVE, f.actor,
          f.reason, null, c.now(), c.now()));
    });
  }

  @Override
  public Experience retire(Grants grants, String experienceId, long expectedVersion, String reason) {
    check(grants);
    Text.id("experienceId", experienceId);
    String why = Text.shortText("reason", Objects.requireNonNull(reason, "reason"), Text.MAX_REASON_CHARS);
    Experience cur = visibleCurrent(grants, experienceId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return commits.run(cur.scope(), c -> {
      Experience now = current(c.reader(), experienceId, expectedVersion);
      if (!now.isActive()) {
        throw new EntryStateException("experience " + experienceId + " is already " + now.status());
      }
      // a retirement is a version of its own, so the history keeps who retired it and why
      c.experienceStatus(now.versionId(), ExperienceStatus.SUPERSEDED);
      return c.insertExperience(new Experience(experienceId, Ids.next(), now.version() + 1, now.versionId(),
          now.scope(), now.situation(), now.action(), now.outcome(), now.lesson(), now.evidence(),
          ExperienceStatus.RETIRED, null, why, null, c.now(), c.now()));
    });
  }

  @Override
  public Experience get(Grants grants, String experienceId) {
    check(grants);
    Text.id("experienceId", experienceId);
    return visibleCurrent(grants, experienceId);
  }

  @Override
  public List<Experience> history(Grants grants, String experienceId) {
    check(grants);
    Text.id("experienceId", experienceId);
    visibleCurrent(grants, experienceId);
    return store.experienceVersions(experienceId);
  }

  @Override
  public List<Experience> list(Grants grants, ExperienceListOptions options) {
    check(grants);
    Objects.requireNonNull(options, "options");
    Collection<String> scopes = new java.util.TreeSet<>(grants.visibleScopes());
    if (options.scope() != null) {
      Namespaces.validate("scope", options.scope());
      policy.requireVisible(grants, options.scope(), "scope " + options.scope());
      scopes = List.of(options.scope());
    }
    return store.experiences(scopes, options.statuses(), options.limit());
  }

  @Override
  public int delete(Grants grants, String experienceId) {
    check(grants);
    Text.id("experienceId", experienceId);
    Experience cur = visibleCurrent(grants, experienceId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return commits.run(cur.scope(), c -> {
      int removed = c.eraseExperience(experienceId);
      if (removed == 0) {
        throw new NotFoundException("experience " + experienceId + " not found or not visible to " + grants);
      }
      return removed;
    });
  }

  @Override
  public IncubationReport incubate(Grants grants, IncubateOptions options) {
    check(grants);
    Objects.requireNonNull(options, "options");
    return incubation.incubate(grants, options);
  }

  // ---- helpers

  private record Fields(String situation, String action, String outcome, String lesson, List<String> evidence,
      @Nullable String actor, @Nullable String reason) {}

  private static Fields fields(ExperienceRequest r) {
    return new Fields(field("situation", r.situation()), field("action", r.action()), field("outcome", r.outcome()),
        field("lesson", r.lesson()), evidence(r.evidence()),
        Text.optionalShort("actor", r.actor(), Text.MAX_SOURCE_CHARS),
        Text.optionalShort("reason", r.reason(), Text.MAX_REASON_CHARS));
  }

  /** The current version of an experience the grants can see; {@link NotFoundException} otherwise. */
  private Experience visibleCurrent(Grants grants, String experienceId) {
    List<Experience> versions = store.experienceVersions(experienceId);
    if (versions.isEmpty() || !grants.canSee(versions.get(0).scope())) {
      throw new NotFoundException("experience " + experienceId + " not found or not visible to " + grants);
    }
    return versions.get(versions.size() - 1);
  }

  /** The current version in the transaction's view, at {@code expected}; {@link VersionConflictException} otherwise. */
  private static Experience current(dev.engram.spi.StoreReader reader, String experienceId, long expected) {
    List<Experience> versions = new ArrayList<>(reader.experienceVersions(experienceId));
    if (versions.isEmpty()) {
      throw new NotFoundException("experience " + experienceId + " not found");
    }
    Experience now = versions.get(versions.size() - 1);
    if (now.version() != expected) {
      throw new VersionConflictException("experience", experienceId, expected, now.version(),
          "experience " + experienceId + " is at version " + now.version() + ", not the expected " + expected);
    }
    return now;
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;

/**
 * Tuning of search, immutable and thread-safe. Made with {@link #builder()} (which starts from
 * {@link #defaults()}) or changed through {@link #toBuilder()}; every setter fails fast with an
 * {@link InvalidInputException} naming the setting.
 *
 * <p>{@link #defaults()}: score fusion ({@link Fusion#SCORE}) with the full-text arm weighted 1.25 against the
 * vector arm's 1 and the arms over retrieval keys at 0.3 (full text) and 0.25 (vectors), each arm
 * contributing its best {@value #CHANNEL_DEPTH_DEFAULT} candidates, the vector admission floor of the embedder's profile
 * ({@link dev.engram.spi.EmbeddingProfile#vectorFloor()}), priority bonus 0.002 (priority 0) / 0.001
 * (priority 1), query embedding timeout 2 s, four soft rules on the fused candidates: speaker 0.3,
 * time 0.1, session 0 (off) and recency 0 (off) (each a share of the best candidate's score added to some
 * candidates; see {@link #speakerBoost()}, {@link #sessionBoost()}, {@link #timeBoost()},
 * {@link #recencyBoost()}), no full-text term-coverage floor ({@link #termCoverage()}); for {@link Fusion#RECIPROCAL_RANK},
 * k 60. Why these values is measured in {@code docs/BENCHMARKS.md} ("Retrieval quality"): score fusion keeps
 * how far ahead of the rest a hit is, which rank fusion throws away; the full-text arm, whose matches are
 * exact, counts a little more than the vector arm's near misses; a key (a reply together with the turn it
 * answers) finds what the reply alone cannot, but at full weight it lets the neighbours of a strong match
 * crowd out the turns that say the thing; and a question that names a participant, a time or several turns
 * of one session is answered mostly by that participant's turns, that time and that session.
 */
public final class SearchSettings {
  /** How hybrid search combines the two channels' candidates. */
  public enum Fusion {
    /**
     * Each channel's scores (BM25, cosine) are scaled to (0, 1] over that channel's candidates (the
     * best is 1, the last admitted one just above 0), then summed with the channel weights. A candidate
     * a channel did not find adds nothing from it, so one found by both never ranks below one found by a
     * single channel at an equal position. Unlike rank fusion it keeps how far ahead a hit is: a full-text
     * match far above the rest stays on top of vector near misses.
     */
    SCORE,
    /** Reciprocal rank fusion: {@code Σ weight / (rrfK + rank)} over the channels that found a candidate. */
    RECIPROCAL_RANK
  }

  /** The default {@link #timeBoost()}. */
  public static final double TIME_BOOST_DEFAULT = 0.1;

  /** The default {@link #keyFtsWeight()}. */
  public static final double KEY_FTS_WEIGHT_DEFAULT = 0.3;

  /** The default {@link #keyVectorWeight()}. */
  public static final double KEY_VECTOR_WEIGHT_DEFAULT = 0.25;

  /** The default {@link #speakerBoost()}. */
  public static final double SPEAKER_BOOST_DEFAULT = 0.3;

  /** The default {@link #sessionBoost()}. */
  public static final double SESSION_BOOST_DEFAULT = 0.0;

  /**
   * The default {@link #channelDepth()}: 200 candidates per arm. A search fuses up to four arms (full text and
   * vectors, over the entries and over their retrieval keys), and the soft rules (speaker, time) can lift only
   * what fusion kept: an evidence turn that every arm ranks moderately, or that a rule would lift, falls out of a
   * shallower pool. On REALTALK 200 gave +0.006 R@10 over 100 with and without the rules, on both halves.
   */
  public static final int CHANNEL_DEPTH_DEFAULT = 200;

  /** The default {@link #termCoverage()}: off, every full-text hit needs one query term (measured, see there). */
  public static final double TERM_COVERAGE_DEFAULT = 0.0;

  /** The default {@link #recencyBoost()}: off (measured, see there). */
  public static final double RECENCY_BOOST_DEFAULT = 0.0;

  /** The default {@link #recencyHalfLife()}: 180 days, as Lore's recency bonus. */
  public static final Duration RECENCY_HALF_LIFE_DEFAULT = Duration.ofDays(180);

  private static final SearchSettings DEFAULTS = new Builder().build();

  private final Fusion fusion;

  private final @Nullable Double vectorFloor;
  private final int rrfK;
  private final double ftsWeight;
  private final double vectorWeight;
  private final double priorityBonus;
  private final Duration embedTimeout;
  private final int channelDepth;
  private final double timeBoost;
  private final double keyFtsWeight;
  private final double keyVectorWeight;
  private final double speakerBoost;
  private final double sessionBoost;
  private final double termCoverage;
  private final double recencyBoost;
  private final Duration recencyHalfLife;

  private SearchSettings(Builder b) {
    this.fusion = b.fusion;
    this.vectorFloor = b.vectorFloor;
    this.rrfK = b.rrfK;
    this.ftsWeight = b.ftsWeight;
    this.vectorWeight = b.vectorWeight;
    this.priorityBonus = b.priorityBonus;
    this.embedTimeout = b.embedTimeout;
    this.channelDepth = b.channelDepth;
    this.timeBoost = b.timeBoost;
    this.keyFtsWeight = b.keyFtsWeight;
    this.keyVectorWeight = b.keyVectorWeight;
    this.speakerBoost = b.speakerBoost;
    this.sessionBoost = b.sessionBoost;
    this.termCoverage = b.termCoverage;
    this.recencyBoost = b.recencyBoost;
    this.recencyHalfLife = b.recencyHalfLife;
  }

  /**
   * @return the library's defaults (see the class documentation)
   */
  public static SearchSettings defaults() {
    return DEFAULTS;
  }

  /**
   * A builder holding the {@link #defaults()}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder(DEFAULTS);
  }

  /**
   * A builder holding these settings.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** @return how hybrid search combines the channels */
  public Fusion fusion() {
    return fusion;
  }

  /**
   * The minimum cosine for the vector channel to admit a version, when set; empty means the floor of
   * the configured embedder's profile ({@link dev.engram.spi.EmbeddingProfile#vectorFloor()}), which
   * knows its model's cosine scale.
   *
   * @return the floor, or empty for the profile's
   */
  public OptionalDouble vectorFloor() {
    return vectorFloor == null ? OptionalDouble.empty() : OptionalDouble.of(vectorFloor);
  }

  /**
   * The floor the vector channel admits at: {@link #vectorFloor()} when set, else {@code profileFloor}.
   *
   * @param profileFloor the embedder profile's floor
   * @return the floor in effect
   */
  public double vectorFloorOr(double profileFloor) {
    return vectorFloor == null ? profileFloor : vectorFloor;
  }

  /**
   * @return the reciprocal-rank-fusion constant: a hit at rank r of a channel adds weight / (k + r) (used
   *     with {@link Fusion#RECIPROCAL_RANK})
   */
  public int rrfK() {
    return rrfK;
  }

  /** @return the weight of the full-text channel in fusion */
  public double ftsWeight() {
    return ftsWeight;
  }

  /** @return the weight of the vector channel in fusion */
  public double vectorWeight() {
    return vectorWeight;
  }

  /**
   * @return added to the fused score for priority 0, half of it for priority 1; it reorders near-ties and
   *     never admits a hit
   */
  public double priorityBonus() {
    return priorityBonus;
  }

  /** @return how long a query embedding may take before {@code AUTO} falls back to full text */
  public Duration embedTimeout() {
    return embedTimeout;
  }

  /** @return how many candidates each channel contributes before fusion */
  public int channelDepth() {
    return channelDepth;
  }

  /**
   * The soft boost for hits whose event time falls in the time the query refers to ("last week", "in May
   * 2023", "on 5 Jan 2024", …, read by the engine's English time-reference parser relative to the request's
   * reference time): such a hit's score is raised by this share of the best candidate's score, so it
   * moves ahead of otherwise-equal hits but never admits anything and never removes a hit. 0 turns it off.
   * {@link #TIME_BOOST_DEFAULT} 0.1: on REALTALK, with the other defaults, it adds +0.002 to +0.004 R@10
   * (temporal questions +0.01); it matters most where content does not carry its dates and questions refer to
   * time relatively ({@code docs/BENCHMARKS.md}, "Time references in questions").
   *
   * @return the boost, within [0, 1]
   */
  public double timeBoost() {
    return timeBoost;
  }

  /**
   * The weight of the full-text arm over the entries' retrieval keys in fusion (beside {@link #ftsWeight()}
   * for their own fields). 0 leaves it out. See {@link dev.engram.spi.EntryViews} for what a retrieval key
   * is.
   *
   * @return the weight, finite and at least 0
   */
  public double keyFtsWeight() {
    return keyFtsWeight;
  }

  /**
   * The weight of the vector arm over the entries' retrieval keys in fusion (beside {@link #vectorWeight()}
   * for their content and views). 0 leaves it out.
   *
   * @return the weight, finite and at least 0
   */
  public double keyVectorWeight() {
    return keyVectorWeight;
  }

  /**
   * The soft boost for hits said by a participant the query names: when the query names the speaker of
   * some candidates (an entry whose content starts {@code "Name: "}, as captured turns do, matched by the
   * name's words), those candidates gain this share of the best candidate's score. 0 turns it off.
   *
   * @return the boost, within [0, 1]
   */
  public double speakerBoost() {
    return speakerBoost;
  }

  /**
   * The soft boost for hits of a session that holds other strong hits: each candidate gains this share
   * of the best candidate's score times the share of the best candidates (the first {@code limit}) that
   * come from its own session (entries with the same {@code source}, such as {@code session:…}). The
   * evidence of a question that needs several turns usually sits in one or two sessions. 0 turns it off.
   *
   * @return the boost, within [0, 1]
   */
  public double sessionBoost() {
    return sessionBoost;
  }

  /**
   * The full-text term-coverage floor (PowerContext's rule): a version enters a full-text arm only when it
   * holds at least this share of the query's distinct terms (after stopwords and stemming, {@link
   * dev.engram.spi.TextAnalysis}), rounded up, and always at least one. With 0.5 a seven-term query needs four
   * of its terms in one version; a one- or two-term query needs one. The arms over retrieval keys count the
   * terms of the version's keys. Unlike the soft rules this is a filter: a version held below it can still be
   * found by the vector arms. {@link #TERM_COVERAGE_DEFAULT} 0, off: on REALTALK every floor measured lowered
   * R@10 ({@code docs/BENCHMARKS.md}, "Recency and term coverage"), since a question's words are often not the
   * answer's.
   *
   * @return the share, within [0, 1]
   */
  public double termCoverage() {
    return termCoverage;
  }

  /**
   * The recency bonus (Lore's rule): each candidate gains {@code recencyBoost × 2^(-age / recencyHalfLife)}
   * times the best candidate's score, where the age runs from the version's {@code occurredAt} (else its
   * {@code updatedAt}) to the request's reference time (else the clock); a version from the future counts as
   * age 0. Of two equally relevant entries the newer then ranks first, and an old one loses at most this share.
   * {@link #RECENCY_BOOST_DEFAULT} 0, off: on REALTALK, where every question asks about the conversation's
   * own past, it was measured as neutral to negative ({@code docs/BENCHMARKS.md}, "Recency and term coverage").
   * Lore's value is 0.04.
   *
   * @return the boost, within [0, 1]
   */
  public double recencyBoost() {
    return recencyBoost;
  }

  /**
   * @return the half-life of {@link #recencyBoost()}: the age at which the bonus is half its full value
   */
  public Duration recencyHalfLife() {
    return recencyHalfLife;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SearchSettings s
        && fusion == s.fusion
        && Objects.equals(vectorFloor, s.vectorFloor)
        && rrfK == s.rrfK
        && Double.compare(ftsWeight, s.ftsWeight) == 0
        && Double.compare(vectorWeight, s.vectorWeight) == 0
        && Double.compare(priorityBonus, s.priorityBonus) == 0
        && embedTimeout.equals(s.embedTimeout)
        && channelDepth == s.channelDepth
        && Double.compare(timeBoost, s.timeBoost) == 0
        && Double.compare(keyFtsWeight, s.keyFtsWeight) == 0
        && Double.compare(keyVectorWeight, s.keyVectorWeight) == 0
        && Double.compare(speakerBoost, s.speakerBoost) == 0
        && Double.compare(sessionBoost, s.sessionBoost) == 0
        && Double.compare(termCoverage, s.termCoverage) == 0
        && Double.compare(recencyBoost, s.recencyBoost) == 0
        && recencyHalfLife.equals(s.recencyHalfLife);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fusion, vectorFloor, rrfK, ftsWeight, vectorWeight, priorityBonus, embedTimeout, channelDepth, timeBoost,
        keyFtsWeight, keyVectorWeight, speakerBoost, sessionBoost, termCoverage, recencyBoost, recencyHalfLife);
  }

  @Override
  public String toString() {
    return "SearchSettings[fusion=" + fusion + ", vectorFloor=" + (vectorFloor == null ? "profile" : vectorFloor) + ", rrfK=" + rrfK
        + ", ftsWeight=" + ftsWeight + ", vectorWeight=" + vectorWeight + ", priorityBonus=" + priorityBonus
        + ", embedTimeout=" + embedTimeout + ", channelDepth=" + channelDepth + ", timeBoost=" + timeBoost
        + ", keyFtsWeight=" + keyFtsWeight + ", keyVectorWeight=" + keyVectorWeight + ", speakerBoost=" + speakerBoost + ", sessionBoost=" + sessionBoost
        + ", termCoverage=" + termCoverage + ", recencyBoost=" + recencyBoost + ", recencyHalfLife=" + recencyHalfLife + "]";
  }

  /** Collects settings; each setter validates its value at once. Not thread-safe. */
  public static final class Builder {
    private Fusion fusion = Fusion.SCORE;
    private @Nullable Double vectorFloor;
    private int rrfK = 60;
    private double ftsWeight = 1.25;
    private double vectorWeight = 1.0;
    private double priorityBonus = 0.002;
    private Duration embedTimeout = Duration.ofSeconds(2);
    private int channelDepth = CHANNEL_DEPTH_DEFAULT;
    private double timeBoost = TIME_BOOST_DEFAULT;
    private double keyFtsWeight = KEY_FTS_WEIGHT_DEFAULT;
    private double keyVectorWeight = KEY_VECTOR_WEIGHT_DEFAULT;
    private double speakerBoost = SPEAKER_BOOST_DEFAULT;
    private double sessionBoost = SESSION_BOOST_DEFAULT;
    private double termCoverage = TERM_COVERAGE_DEFAULT;
    private double recencyBoost = RECENCY_BOOST_DEFAULT;
    private Duration recencyHalfLife = RECENCY_HALF_LIFE_DEFAULT;

    private Builder() {}

    private Builder(SearchSettings from) {
      this.fusion = from.fusion;
      this.vectorFloor = from.vectorFloor;
      this.rrfK = from.rrfK;
      this.ftsWeight = from.ftsWeight;
      this.vectorWeight = from.vectorWeight;
      this.priorityBonus = from.priorityBonus;
      this.embedTimeout = from.embedTimeout;
      this.channelDepth = from.channelDepth;
      this.timeBoost = from.timeBoost;
      this.keyFtsWeight = from.keyFtsWeight;
      this.keyVectorWeight = from.keyVectorWeight;
      this.speakerBoost = from.speakerBoost;
      this.sessionBoost = from.sessionBoost;
      this.termCoverage = from.termCoverage;
      this.recencyBoost = from.recencyBoost;
      this.recencyHalfLife = from.recencyHalfLife;
    }

    /**
     * How hybrid search combines the channels (default {@link Fusion#SCORE}).
     *
     * @param fusion the method
     * @return this builder
     * @throws NullPointerException when {@code fusion} is null
     */
    public Builder fusion(Fusion fusion) {
      this.fusion = Objects.requireNonNull(fusion, "fusion");
      return this;
    }

    /**
     * A fixed vector admission floor, used whatever the embedder.
     *
     * @param floor the minimum cosine, within [-1, 1]
     * @return this builder
     * @throws InvalidInputException when the floor is out of range
     */
    public Builder vectorFloor(double floor) {
      if (!(floor >= -1 && floor <= 1)) {
        throw new InvalidInputException("vectorFloor", "must be within [-1, 1], was " + floor);
      }
      this.vectorFloor = floor;
      return this;
    }

    /**
     * The vector admission floor of the embedder's profile (the default).
     *
     * @return this builder
     */
    public Builder profileVectorFloor() {
      this.vectorFloor = null;
      return this;
    }

    /**
     * The reciprocal-rank-fusion constant (default 60), used with {@link Fusion#RECIPROCAL_RANK}.
     *
     * @param k at least 1
     * @return this builder
     * @throws InvalidInputException when k is below 1
     */
    public Builder rrfK(int k) {
      if (k < 1) {
        throw new InvalidInputException("rrfK", "must be >= 1, was " + k);
      }
      this.rrfK = k;
      return this;
    }

    /**
     * The full-text channel's weight in fusion (default 1.25).
     *
     * @param weight finite and at least 0
     * @return this builder
     * @throws InvalidInputException when the weight is negative, NaN or infinite
     */
    public Builder ftsWeight(double weight) {
      this.ftsWeight = weight("ftsWeight", weight);
      return this;
    }

    /**
     * The vector channel's weight in fusion (default 1).
     *
     * @param weight finite and at least 0
     * @return this builder
     * @throws InvalidInputException when the weight is negative, NaN or infinite
     */
    public Builder vectorWeight(double weight) {
      this.vectorWeight = weight("vectorWeight", weight);
      return this;
    }

    /**
     * The bonus for priority 0 (half of it for priority 1) added to fused scores (default 0.002).
     *
     * @param bonus within [0, 0.01)
     * @return this builder
     * @throws InvalidInputException when the bonus is out of range
     */
    public Builder priorityBonus(double bonus) {
      if (!(bonus >= 0 && bonus < 0.01)) {
        throw new InvalidInputException("priorityBonus", "must be within [0, 0.01), was " + bonus);
      }
      this.priorityBonus = bonus;
      return this;
    }

    /**
     * How long a query embedding may take (default 2 s).
     *
     * @param timeout positive
     * @return this builder
     * @throws InvalidInputException when the timeout is zero or negative
     * @throws NullPointerException when {@code timeout} is null
     */
    public Builder embedTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "embedTimeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new InvalidInputException("embedTimeout", "must be positive, was " + timeout);
      }
      this.embedTimeout = timeout;
      return this;
    }

    /**
     * Candidates each channel contributes before fusion (default {@value #CHANNEL_DEPTH_DEFAULT}).
     *
     * @param depth 10..1000
     * @return this builder
     * @throws InvalidInputException when the depth is out of range
     */
    public Builder channelDepth(int depth) {
      if (depth < 10 || depth > 1000) {
        throw new InvalidInputException("channelDepth", "must be between 10 and 1000, was " + depth);
      }
      this.channelDepth = depth;
      return this;
    }

    /**
     * The soft boost for hits that occurred in the time the query refers to (see
     * {@link SearchSettings#timeBoost()}).
     *
     * @param boost within [0, 1]; 0 turns it off
     * @return this builder
     * @throws InvalidInputException when the boost is out of range
     */
    public Builder timeBoost(double boost) {
      if (!(boost >= 0 && boost <= 1)) {
        throw new InvalidInputException("timeBoost", "must be within [0, 1], was " + boost);
      }
      this.timeBoost = boost;
      return this;
    }

    /**
     * The weights of the arms over retrieval keys (see {@link SearchSettings#keyFtsWeight()} and
     * {@link SearchSettings#keyVectorWeight()}).
     *
     * @param fts the full-text arm's weight, finite and at least 0
     * @param vector the vector arm's weight, finite and at least 0; both 0 leave the keys out of ranking
     * @return this builder
     * @throws InvalidInputException when a weight is negative, NaN or infinite
     */
    public Builder keyWeights(double fts, double vector) {
      this.keyFtsWeight = weight("keyFtsWeight", fts);
      this.keyVectorWeight = weight("keyVectorWeight", vector);
      return this;
    }

    /**
     * The soft boost for hits said by a participant the query names (see {@link SearchSettings#speakerBoost()}).
     *
     * @param boost within [0, 1]; 0 turns it off
     * @return this builder
     * @throws InvalidInputException when the boost is out of range
     */
    public Builder speakerBoost(double boost) {
      this.speakerBoost = unit("speakerBoost", boost);
      return this;
    }

    /**
     * The soft boost for hits of a session holding other strong hits (see {@link SearchSettings#sessionBoost()}).
     *
     * @param boost within [0, 1]; 0 turns it off
     * @return this builder
     * @throws InvalidInputException when the boost is out of range
     */
    public Builder sessionBoost(double boost) {
      this.sessionBoost = unit("sessionBoost", boost);
      return this;
    }

    /**
     * The full-text term-coverage floor (see {@link SearchSettings#termCoverage()}).
     *
     * @param share within [0, 1]; 0 needs one query term, as without a floor
     * @return this builder
     * @throws InvalidInputException when the share is out of range
     */
    public Builder termCoverage(double share) {
      this.termCoverage = unit("termCoverage", share);
      return this;
    }

    /**
     * The recency bonus (see {@link SearchSettings#recencyBoost()}).
     *
     * @param boost within [0, 1]; 0 turns it off
     * @param halfLife the age at which the bonus is half its full value, positive
     * @return this builder
     * @throws InvalidInputException when the boost is out of range or the half-life is not positive
     * @throws NullPointerException when {@code halfLife} is null
     */
    public Builder recencyBoost(double boost, Duration halfLife) {
      Objects.requireNonNull(halfLife, "halfLife");
      if (halfLife.isNegative() || halfLife.isZero()) {
        throw new InvalidInputException("recencyHalfLife", "must be positive, was " + halfLife);
      }
      this.recencyBoost = unit("recencyBoost", boost);
      this.recencyHalfLife = halfLife;
      return this;
    }

    /**
     * The settings.
     *
     * @return the settings
     * @throws InvalidInputException when both channel weights are 0
     */
    public SearchSettings build() {
      if (ftsWeight + vectorWeight == 0) {
        throw new InvalidInputException("ftsWeight", "channel weights must not both be 0");
      }
      return new SearchSettings(this);
    }

    private static double unit(String name, double v) {
      if (!(v >= 0 && v <= 1)) {
        throw new InvalidInputException(name, "must be within [0, 1], was " + v);
      }
      return v;
    }

    private static double weight(String name, double w) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new InvalidInputException(name, "must be finite and >= 0, was " + w);
      }
      return w;
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Grants;
import dev.engram.ModelUsageRow;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ModelCall;
import dev.engram.spi.ModelCallListener;
import dev.engram.spi.StoreCapability;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Model usage per scope and day: the listener the engine's reasoner reports every model call to
 * ({@link dev.engram.spi.Reasoner#reportingTo}). An operation that may call the reasoner opens a
 * {@link Frame} on its thread; the parts that call the reasoner say which scope the calls are for
 * ({@link #attribute}), and a call made before the scope is known (a write's tag call, before the model
 * chose the namespace) waits in the frame until it is. When the outermost frame closes, the calls are
 * added up per (scope, day, provider, model, job) and stored in one small transaction per scope, apart
 * from the operation's own commit: a failed operation's calls are counted too, under the scope it was
 * for or else its first granted namespace, and a failure to store them is logged and reported
 * ({@link Frame#unrecorded()}), never thrown.
 *
 * <p>Calls reported on a thread with no open frame (a reasoner used outside the engine, or one that
 * calls its model on a thread of its own) are not attributed and are only logged at debug level.
 */
final class ModelUsageMeter implements ModelCallListener {
  private static final Logger LOG = LoggerFactory.getLogger(ModelUsageMeter.class);

  private final MemoryStore store;
  private final Clock clock;
  private final boolean keeps;
  private final ThreadLocal<Frame> current = new ThreadLocal<>();

  ModelUsageMeter(MemoryStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
    this.keeps = store.capabilities().contains(StoreCapability.MODEL_USAGE);
  }

  /** Whether the store keeps model usage. */
  boolean keeps() {
    return keeps;
  }

  /**
   * Opens a frame on this thread for an operation with {@code grants}; a frame opened while another is
   * open joins it (its close does nothing but restore the outer scope).
   */
  Frame open(Grants grants) {
    Frame outer = current.get();
    if (outer != null) {
      return new Frame(outer);
    }
    Frame f = new Frame(grants.namespaces().isEmpty() ? null : grants.namespaces().get(0));
    current.set(f);
    return f;
  }

  /**
   * The calls from now on in this thread's frame are for {@code scope}, and so are those that waited for
   * a scope. With null, the waiting calls go to the frame's first granted namespace and later calls wait.
   */
  void attribute(@Nullable String scope) {
    Frame f = current.get();
    if (f != null) {
      f.root().attribute(scope);
    }
  }

  @Override
  public void onModelCall(ModelCall call) {
    Objects.requireNonNull(call, "call");
    Frame f = current.get();
    if (f == null) {
      LOG.debug("a {} call to {} {} was made outside an engine operation's thread; its usage is not attributed",
          call.job(), call.provider(), call.model());
      return;
    }
    f.root().add(call, LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC));
  }

  private record Key(String scope, LocalDate day, String provider, String model, String job) {}

  private static final class Counts {
    long calls;
    long input;
    long output;
    long failures;

    void add(ModelCall c) {
      calls++;
      input += c.inputTokens();
      output += c.outputTokens();
      failures += c.failed() ? 1 : 0;
    }
  }

  private record Waiting(ModelCall call, LocalDate day) {}

  /** The model calls of one operation on one thread; closed by the operation (try-with-resources). */
  final class Frame implements AutoCloseable {
    private final @Nullable Frame outer;
    private final @Nullable String fallback;
    private final @Nullable String outerScope;
    private @Nullable String scope;
    private final List<Waiting> waiting = new ArrayList<>();
    private final Map<Key, Counts> counts = new LinkedHashMap<>();
    private final List<String> unrecorded = new ArrayList<>();
    private boolean closed;

    private Frame(@Nullable String fallback) {
      this.outer = null;
      this.fallback = fallback;
      this.outerScope = null;
    }

    private Frame(Frame outer) {
      this.outer = outer;
      this.fallback = null;
      this.outerScope = outer.root().scope;
    }

    private Frame root() {
      return outer == null ? this : outer.root();
    }

    private void attribute(@Nullable String to) {
      String target = to != null ? to : fallback;
      if (target != null) {
        for (Waiting w : waiting) {
          count(target, w.call, w.day);
        }
        waiting.clear();
      }
      scope = to;
    }

    private void add(ModelCall call, LocalDate day) {
      if (scope == null) {
        waiting.add(new Waiting(call, day));
      } else {
        count(scope, call, day);
      }
    }

    private void count(String to, ModelCall call, LocalDate day) {
      counts.computeIfAbsent(new Key(to, day, call.provider(), call.model(), call.job()), k -> new Counts()).add(call);
    }

    /** The scopes whose usage of this frame could not be stored (empty until the outermost frame closed). */
    List<String> unrecorded() {
      return root().unrecorded;
    }

    /**
     * The usage of this frame's calls could not be stored for {@code scope}: the warning a result carries.
     */
    static String warning(String scope) {
      return "the model usage of this operation could not be recorded for scope " + scope
          + " (the store failed; see the log); the operation itself is not affected";
    }

    /** Records the frame's calls (the outermost frame) or restores the outer scope (a joined one); idempotent. */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      if (outer != null) {
        root().scope = outerScope;
        return;
      }
      current.remove();
      attribute(null);
      if (counts.isEmpty()) {
        return;
      }
      if (!keeps) {
        LOG.debug("{} model call group(s) made; {} keeps no model usage", counts.size(),
            store.getClass().getSimpleName());
        return;
      }
      Map<String, List<ModelUsageRow>> byScope = new TreeMap<>();
      for (Map.Entry<Key, Counts> e : counts.entrySet()) {
        Key k = e.getKey();
        Counts c = e.getValue();
        byScope.computeIfAbsent(k.scope, s -> new ArrayList<>()).add(new ModelUsageRow(
            k.scope, k.day, k.provider, k.model, k.job, c.calls, c.input, c.output, c.failures));
      }
      for (Map.Entry<String, List<ModelUsageRow>> e : byScope.entrySet()) {
        try {
          store.inTransaction(e.getKey(), tx -> {
            tx.addModelUsage(e.getValue());
            return null;
          });
        } catch (RuntimeException x) {
          unrecorded.add(e.getKey());
          LOG.warn("the model usage of an operation on {} could not be recorded ({} row(s) lost): {}", e.getKey(),
              e.getValue().size(), x.toString());
        }
      }
    }
  }

  /**
   * {@code reasoner} reporting its model calls here, with the calls of each curated slice, extracted
   * window and incubated window counted for the request's scope; a tag call waits in the frame for the
   * scope the write is filed in; a views call counts for the scope last attributed.
   */
  dev.engram.spi.Reasoner attributing(dev.engram.spi.Reasoner reasoner) {
    return new Attributing(reasoner.reportingTo(this), reasoner.getClass().getSimpleName());
  }

  /** The simple class name of the configured reasoner behind {@code reasoner}, for messages. */
  static String nameOf(dev.engram.spi.Reasoner reasoner) {
    return reasoner instanceof Attributing a ? a.name : reasoner.getClass().getSimpleName();
  }

  /** The engine's reasoner: the configured one, reporting to the meter, each job attributed. */
  private final class Attributing implements dev.engram.spi.Reasoner {
    private final dev.engram.spi.Reasoner delegate;
    private final String name;

    Attributing(dev.engram.spi.Reasoner delegate, String name) {
      this.delegate = Objects.requireNonNull(delegate, "reportingTo returned null");
      this.name = name;
    }

    @Override
    public dev.engram.spi.TagProposal tag(dev.engram.spi.TagRequest request) {
      attribute(null);
      return delegate.tag(request);
    }

    @Override
    public boolean usesContext() {
      return delegate.usesContext();
    }

    @Override
    public dev.engram.spi.TagFailure tagFailure() {
      return delegate.tagFailure();
    }

    @Override
    public boolean curates() {
      return delegate.curates();
    }

    @Override
    public List<dev.engram.spi.CurateOp> curate(dev.engram.spi.CurateRequest request) {
      attribute(request.scope());
      return delegate.curate(request);
    }

    @Override
    public boolean extracts() {
      return delegate.extracts();
    }

    @Override
    public List<dev.engram.spi.ExtractedMemory> extract(dev.engram.spi.ExtractRequest request) {
      attribute(request.scope());
      return delegate.extract(request);
    }

    @Override
    public boolean incubates() {
      return delegate.incubates();
    }

    @Override
    public List<dev.engram.spi.IncubatedExperience> incubate(dev.engram.spi.IncubateRequest request) {
      attribute(request.scope());
      return delegate.incubate(request);
    }

    @Override
    public dev.engram.spi.@Nullable EntryViews views(
        String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
      return delegate.views(content, disclosure, glossary, path);
    }

    @Override
    public dev.engram.spi.Reasoner reportingTo(ModelCallListener listener) {
      return new Attributing(delegate.reportingTo(listener), name);
    }

    @Override
    public String toString() {
      return delegate.toString();
    }
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.observation;

import dev.engram.spi.MemoryStore;
import io.micrometer.common.KeyValues;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Observed views built as dynamic proxies of an interface, so every method of it — the default
 * methods included, and methods a later release adds — is forwarded to the wrapped object exactly as
 * it is declared there: a hand-written forwarder would fall back to an interface default and silently
 * change what the wrapped object does.
 *
 * <p>Two kinds: a view of the engine ({@code experience()}, {@code review()}), where every call is one
 * {@value EngramObservation#OPERATION} observation named after the view and the method; and a store,
 * where each {@code inTransaction} call is one {@value EngramObservation#TRANSACTION} observation and
 * every other call goes straight through.
 */
final class ObservedProxy implements InvocationHandler {
  private static final Set<String> OBJECT_METHODS = Set.of("equals", "hashCode", "toString");
  private static final ThreadLocal<int[]> TRANSACTION_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private final Object delegate;
  private final Observations observation;
  private final @Nullable String viewPrefix;

  private ObservedProxy(Object delegate, Observations observation, @Nullable String viewPrefix) {
    this.delegate = delegate;
    this.observation = observation;
    this.viewPrefix = viewPrefix;
  }

  /** {@code view} with each call observed as the operation {@code prefix.method}. */
  static <T> T view(Class<T> type, T view, String prefix, Observations observation) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        new ObservedProxy(view, observation, prefix)));
  }

  /** {@code store} with each transaction observed. */
  static MemoryStore store(MemoryStore store, Observations observation) {
    return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
        new Class<?>[] {MemoryStore.class}, new ObservedProxy(store, observation, null));
  }

  /** The store an observed store wraps, or {@code store} itself. */
  static Object unwrap(Object store) {
    if (Proxy.isProxyClass(store.getClass()) && Proxy.getInvocationHandler(store) instanceof ObservedProxy p) {
      return unwrap(p.delegate);
    }
    return store;
  }

  @Override
  public @Nullable Object invoke(Object proxy, Method method, Object @Nullable [] args) throws Throwable {
    try {
      return observe(proxy, method, args);
    } catch (UndeclaredCheckedException e) {
      throw e.getCause();
    }
  }

  private @Nullable Object observe(Object proxy, Method method, Object @Nullable [] args) {
    if (method.getDeclaringClass() == Object.class && OBJECT_METHODS.contains(method.getName())) {
      return switch (method.getName()) {
        case "equals" -> args != null && proxy == args[0];
        case "hashCode" -> System.identityHashCode(proxy);
        default -> delegate.toString();
      };
    }
    if (viewPrefix != null) {
      return observation.call(viewPrefix + "." + method.getName(), forward(method, args));
    }
    if (method.getName().equals("inTransaction")) {
      int[] depth = TRANSACTION_DEPTH.get();
      KeyValues nested = KeyValues.of(EngramObservation.NESTED, Boolean.toString(depth[0] > 0));
      depth[0]++;
      try {
        return observation.call("inTransaction", nested, forward(method, args), r -> KeyValues.empty());
      } finally {
        depth[0]--;
      }
    }
    return forward(method, args).get();
  }

  /** The call on the delegate, throwing what it throws (checked exceptions wrapped for the supplier). */
  private Supplier<@Nullable Object> forward(Method method, Object @Nullable [] args) {
    return () -> {
      try {
        return method.invoke(delegate, args);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException r) {
          throw r;
        }
        if (cause instanceof Error err) {
          throw err;
        }
        throw new UndeclaredCheckedException(cause);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot call " + method + " on " + delegate.getClass().getName(), e);
      }
    };
  }

  /** A checked exception of the wrapped call, carried through the observation and rethrown as it was. */
  private static final class UndeclaredCheckedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UndeclaredCheckedException(Throwable cause) {
      super(cause);
    }
  }
}

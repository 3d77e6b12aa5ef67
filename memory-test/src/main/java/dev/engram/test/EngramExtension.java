/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.test;

import dev.engram.Engram;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives each test a fresh {@link TestMemory} and closes it after the test. A test
 * (or a {@code @BeforeEach} method) asks for what it needs as parameters: {@link Engram},
 * {@link ScriptedReasoner}, {@link SteppingClock}, {@link HashingEmbedder} or {@link TestMemory}; all
 * parameters of one test come from the same memory.
 *
 * <pre>{@code
 * @ExtendWith(EngramExtension.class)
 * class PreferencesTest {
 *   @Test
 *   void remembersUnits(Engram engram) { … }
 * }
 * }</pre>
 *
 * <p>With other options, register it in a static field instead:
 * {@code @RegisterExtension static final EngramExtension MEMORY = EngramExtension.with(options);}
 */
public final class EngramExtension implements ParameterResolver, AfterEachCallback {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EngramExtension.class);
  private static final Set<Class<?>> RESOLVED =
      Set.of(TestMemory.class, Engram.class, ScriptedReasoner.class, SteppingClock.class, HashingEmbedder.class);

  private final TestMemoryOptions options;

  /** The extension with {@link TestMemoryOptions#defaults()}; what {@code @ExtendWith} creates. */
  public EngramExtension() {
    this(TestMemoryOptions.defaults());
  }

  private EngramExtension(TestMemoryOptions options) {
    this.options = options;
  }

  /**
   * The extension with {@code options}, for {@code @RegisterExtension}.
   *
   * @param options the options
   * @return the extension
   */
  public static EngramExtension with(TestMemoryOptions options) {
    return new EngramExtension(Objects.requireNonNull(options, "options"));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return RESOLVED.contains(parameter.getParameter().getType());
  }

  /**
   * The test's memory, or one of its parts; the memory is created at the first parameter of the test and
   * closed when the test ends.
   *
   * @throws ParameterResolutionException if the memory cannot be created (its store is not on the class path)
   */
  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    TestMemory memory;
    try {
      memory = context.getStore(NAMESPACE)
          .getOrComputeIfAbsent(TestMemory.class, k -> TestMemory.create(options), TestMemory.class);
    } catch (RuntimeException e) {
      throw new ParameterResolutionException("cannot create the test's memory: " + e.getMessage(), e);
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == Engram.class) {
      return memory.engram();
    }
    if (type == ScriptedReasoner.class) {
      return memory.reasoner();
    }
    if (type == SteppingClock.class) {
      return memory.clock();
    }
    if (type == HashingEmbedder.class) {
      return memory.embedder();
    }
    return memory;
  }

  /** Closes the test's memory, if it asked for one. */
  @Override
  public void afterEach(ExtensionContext context) {
    TestMemory memory = context.getStore(NAMESPACE).remove(TestMemory.class, TestMemory.class);
    if (memory != null) {
      memory.close();
    }
  }
}

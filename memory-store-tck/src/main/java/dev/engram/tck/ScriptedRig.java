/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.Engram;
import dev.engram.spi.MemoryStore;
import dev.engram.test.ScriptedReasoner;
import java.util.List;

/**
 * One store, an engine over it, and the scripted reasoner the engine uses ({@link ContractSupport#rig()}).
 *
 * @param store the store
 * @param engram the engine over it
 * @param reasoner the engine's reasoner
 */
public record ScriptedRig(MemoryStore store, Engram engram, ScriptedReasoner reasoner) {
  /** The scopes the fixtures write to. */
  public static final List<String> FIXTURE_SCOPES = List.of("app", "app/user", Fixtures.S1, Fixtures.S2, "org/team");

  /**
   * Everything the store holds for the fixture scopes, read through the SPI.
   *
   * @return the snapshot
   */
  public StoreSnapshot snapshot() {
    return StoreSnapshot.of(store, FIXTURE_SCOPES);
  }
}

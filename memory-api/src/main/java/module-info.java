/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Engram's API: the {@code Engram} facade and its value types ({@code dev.engram}) and the service
 * provider interfaces stores, reasoners and embedders implement ({@code dev.engram.spi}). The engine
 * behind them ({@code dev.engram.internal}) is not exported.
 */
module dev.engram {
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;
  requires static transitive org.jspecify;

  exports dev.engram;
  exports dev.engram.spi;

  // the stores and embedders on the module or class path, found by StoreSpec and EmbedderSpec
  uses dev.engram.spi.StoreProvider;
  uses dev.engram.spi.EmbedderProvider;
}

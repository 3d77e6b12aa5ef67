/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Engram's API: the {@code Engram} facade and its value types ({@code dev.engram}) and the service
 * provider interfaces stores, reasoners and embedders implement ({@code dev.engram.spi}). The engine
 * behind them ({@code dev.engram.internal}) and the JSON forms as trees ({@code dev.engram.json}) are not
 * exported; the retrying HTTP client ({@code dev.engram.http}) is exported to the LLM reasoner and the HTTP
 * embedder only.
 */
module dev.engram {
  requires com.fasterxml.jackson.databind;
  requires java.net.http;
  requires org.slf4j;
  requires static transitive org.jspecify;

  exports dev.engram;
  exports dev.engram.spi;
  // the retrying HTTP client of the two adapters that call HTTP APIs; not API
  exports dev.engram.http to dev.engram.reasoner, dev.engram.embeddings.http;

  // the stores and embedders on the module or class path, found by StoreSpec and EmbedderSpec
  uses dev.engram.spi.StoreProvider;
  uses dev.engram.spi.EmbedderProvider;
}

package dev.engram;

/** A retrieval channel that contributed a hit. */
public enum SearchChannel {
  FTS,
  VECTOR
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Engram#writeAll(Grants, List)} did, one item per request, in request order.
 *
 * @param items the outcome of every request: a {@link WriteResult} or the error that rejected it
 */
public record BatchWriteResult(List<Item> items) {

  /**
   * Copies the items and checks that item {@code i} has index {@code i}.
   *
   * @param items the outcome of every request, in request order
   * @throws NullPointerException when {@code items} or an item is null
   * @throws InvalidInputException when an item is out of place
   */
  public BatchWriteResult {
    items = List.copyOf(items);
    for (int i = 0; i < items.size(); i++) {
      Object item = items.get(i);
      if (!(item instanceof Item it)) {
        throw new InvalidInputException("items", "items[" + i + "] is not a BatchWriteResult.Item");
      }
      if (it.index() != i) {
        throw new InvalidInputException("items", "items[" + i + "] has index " + it.index());
      }
    }
  }

  /**
   * The outcome of one request: exactly one of {@code result} and {@code error} is set.
   *
   * @param index the request's position in the batch
   * @param result what the write did ({@code APPENDED}, {@code DEDUPED} or {@code UPDATED}), or null
   *     when it was rejected
   * @param error why the request was rejected (the exception a single
   *     {@link Engram#write(Grants, String, WriteOptions)} with the same arguments would have thrown,
   *     or the {@link StoreException} that rolled back its scope), or null when it was written
   */
  public record Item(int index, @Nullable WriteResult result, @Nullable MemoryException error) {
    /**
     * Checks that exactly one of {@code result} and {@code error} is set.
     *
     * @param index the request's position in the batch, {@code >= 0}
     * @param result what the write did, or null
     * @param error why the request was rejected, or null
     * @throws InvalidInputException when {@code index} is negative, or both or neither of {@code result} and
     *     {@code error} are set
     */
    public Item {
      if (index < 0) {
        throw new InvalidInputException("index", "index must be >= 0, was " + index);
      }
      if ((result == null) == (error == null)) {
        throw new InvalidInputException(result == null ? "error" : "result",
            "item " + index + " needs exactly one of result and error");
      }
    }

    /**
     * @param index the request's position
     * @param result what the write did
     * @return a written item
     * @throws NullPointerException when {@code result} is null
     */
    public static Item written(int index, WriteResult result) {
      return new Item(index, Objects.requireNonNull(result, "result"), null);
    }

    /**
     * @param index the request's position
     * @param error why it was rejected
     * @return a rejected item
     * @throws NullPointerException when {@code error} is null
     */
    public static Item rejected(int index, MemoryException error) {
      return new Item(index, null, Objects.requireNonNull(error, "error"));
    }

    /** @return whether the request was written (or deduplicated) */
    public boolean ok() {
      return result != null;
    }
  }

  /** @return the results of the requests that were written, in request order */
  public List<WriteResult> results() {
    List<WriteResult> out = new ArrayList<>();
    for (Item item : items) {
      if (item.result() != null) {
        out.add(item.result());
      }
    }
    return List.copyOf(out);
  }

  /** @return the rejected items, in request order */
  public List<Item> rejected() {
    List<Item> out = new ArrayList<>();
    for (Item item : items) {
      if (item.error() != null) {
        out.add(item);
      }
    }
    return List.copyOf(out);
  }

  /**
   * @param outcome an outcome
   * @return how many requests ended with {@code outcome}
   * @throws NullPointerException when {@code outcome} is null
   */
  public int count(WriteResult.Outcome outcome) {
    Objects.requireNonNull(outcome, "outcome");
    int n = 0;
    for (Item item : items) {
      if (item.result() != null && item.result().outcome() == outcome) {
        n++;
      }
    }
    return n;
  }

  /** @return whether no request was rejected */
  public boolean allWritten() {
    return rejected().isEmpty();
  }
}

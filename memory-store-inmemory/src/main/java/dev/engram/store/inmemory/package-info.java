/** The reference {@link dev.engram.spi.MemoryStore}: in process, thread-safe, not durable. */
@NullMarked
package dev.engram.store.inmemory;

import org.jspecify.annotations.NullMarked;

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryType;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The reasoner's answer to a {@link TagRequest}. Untrusted: every field is validated before anything
 * is written. Null fields are rejected, except {@code duplicateOf}.
 *
 * @param namespace where to file the entry
 * @param duplicateOf the entryId of a shown candidate this content duplicates, or null
 */
public record TagProposal(
    @Nullable String namespace,
    @Nullable List<String> topics,
    @Nullable EntryType type,
    @Nullable String content,
    @Nullable String duplicateOf) {}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Engram's JSON forms as trees, shared by the SPI's string codec and the engine's export and import. Not
 * exported, not API.
 */
@NullMarked
package dev.engram.json;

import org.jspecify.annotations.NullMarked;

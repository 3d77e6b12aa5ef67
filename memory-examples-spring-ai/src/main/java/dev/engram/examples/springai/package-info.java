/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/** A Spring Boot ChatClient application whose model remembers through the Engram memory tools. */
@NullMarked
package dev.engram.examples.springai;

import org.jspecify.annotations.NullMarked;

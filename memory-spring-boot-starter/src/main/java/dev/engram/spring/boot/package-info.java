/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/** Spring Boot auto-configuration of Engram from {@code engram.*} properties. */
@NullMarked
package dev.engram.spring.boot;

import org.jspecify.annotations.NullMarked;

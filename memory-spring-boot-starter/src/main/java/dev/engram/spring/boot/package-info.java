/** Spring Boot auto-configuration of Engram from {@code engram.*} properties. */
@NullMarked
package dev.engram.spring.boot;

import org.jspecify.annotations.NullMarked;

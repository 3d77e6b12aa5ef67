/** A Spring Boot ChatClient application whose model remembers through the Engram memory tools. */
@NullMarked
package dev.engram.examples.springai;

import org.jspecify.annotations.NullMarked;

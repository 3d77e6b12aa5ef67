/** Reasoners that file ({@code tag}) and tidy ({@code curate}) memory. */
@NullMarked
package dev.engram.reasoner;

import org.jspecify.annotations.NullMarked;

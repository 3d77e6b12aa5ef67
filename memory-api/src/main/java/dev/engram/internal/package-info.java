/** The engine behind {@link dev.engram.Engram}. Not API: anything here may change without notice. */
@NullMarked
package dev.engram.internal;

import org.jspecify.annotations.NullMarked;

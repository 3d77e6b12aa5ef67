/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.cli.Diff.Op;
import dev.engram.cli.Diff.Piece;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiffTest {
  @Test
  void marksTheWordsThatChanged() {
    List<Piece> d = Diff.content("Prefers metric units for recipes.", "Prefers imperial units for recipes.");
    assertThat(d).containsExactly(new Piece(Op.SAME, "Prefers "), new Piece(Op.DELETED, "metric "),
        new Piece(Op.INSERTED, "imperial "), new Piece(Op.SAME, "units for recipes."));
  }

  @Test
  void joiningEitherSideRestoresThatText() {
    String before = "a b  c\nd e";
    String after = "a x c\nd e f";
    List<Piece> d = Diff.content(before, after);
    StringBuilder left = new StringBuilder();
    StringBuilder right = new StringBuilder();
    for (Piece p : d) {
      if (p.op() != Op.INSERTED) {
        left.append(p.text());
      }
      if (p.op() != Op.DELETED) {
        right.append(p.text());
      }
    }
    // common words carry the after side's spacing, so the before side matches up to whitespace
    assertThat(left.toString().replaceAll("\\s+", " ").strip()).isEqualTo(before.replaceAll("\\s+", " "));
    assertThat(right).hasToString(after);
  }

  @Test
  void aCreationIsAllInserted() {
    assertThat(Diff.content(null, "new text")).containsExactly(new Piece(Op.INSERTED, "new text"));
    assertThat(Diff.content("same", "same")).containsExactly(new Piece(Op.SAME, "same"));
  }
}

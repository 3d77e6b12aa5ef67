/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HtmlTest {
  @Test
  void escapesMarkupQuotesAndForbiddenCharacters() {
    assertThat(Html.esc("<script>alert(\"x\")</script> & 'y'"))
        .isEqualTo("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;");
    assertThat(Html.esc("a\u0000b\u001bc\n")).isEqualTo("a\uFFFDb\uFFFDc\n");
    assertThat(Html.esc("lone \uD800 surrogate, pair \uD83D\uDE00")).isEqualTo("lone \uFFFD surrogate, pair \uD83D\uDE00");
  }

  @Test
  void formsDecodeAndKeepTheFirstValue() {
    assertThat(Console.form("q=a%20b+c&q=second&bad=%zz&mode=fts"))
        .containsEntry("q", "a b c").containsEntry("mode", "fts").doesNotContainKey("bad");
  }

  @Test
  void exitCodesFollowTheDocumentedTable() {
    assertThat(EngramCli.exitCode(new dev.engram.NotFoundException("x"))).isEqualTo(1);
    assertThat(EngramCli.exitCode(new dev.engram.InvalidInputException("f", "bad"))).isEqualTo(2);
    assertThat(EngramCli.exitCode(new UsageException("u"))).isEqualTo(2);
    assertThat(EngramCli.exitCode(dev.engram.StoreException.unavailable("down", null))).isEqualTo(3);
  }
}

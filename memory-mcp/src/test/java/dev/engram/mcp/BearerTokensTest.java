/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokensTest {
  static final String CAROL = "carol-0123456789abcdef";
  @TempDir Path dir;

  BearerTokens read(String text) throws IOException {
    Path file = dir.resolve("tokens.txt");
    Files.writeString(file, text);
    return BearerTokens.read(file);
  }

  static String bearer(String token) {
    return "Bearer " + token;
  }

  @Test
  void wholeLineAndTrailingCommentsAreComments() throws IOException {
    BearerTokens tokens = read("""
        # the operator's tokens
          # indented comment
        %s app/user/carol # not team/blue
        dave-0123456789abcdef\tapp/user/dave\t#tab then comment
        erin-0123456789abcdef app/user/erin #
        """.formatted(CAROL));
    BearerTokens.Token carol = tokens.tokenFor(bearer(CAROL));
    assertThat(carol).isNotNull();
    assertThat(carol.grants().namespaces()).containsExactly("app/user/carol");
    assertThat(carol.line()).isEqualTo(3);
    assertThat(tokens.tokenFor(bearer("dave-0123456789abcdef")).grants().namespaces()).containsExactly("app/user/dave");
    assertThat(tokens.tokenFor(bearer("erin-0123456789abcdef")).grants().namespaces()).containsExactly("app/user/erin");
    assertThat(tokens.tokenFor(bearer("#"))).isNull();
  }

  @Test
  void aHashInsideAWordRefusesTheFileNamingTheLine() {
    assertThatThrownBy(() -> read("# tokens\n" + CAROL + " app/user/carol#team/blue\n"))
        .isInstanceOf(StartupException.class).hasMessageContaining("line 2").hasMessageContaining("'#' inside");
    assertThatThrownBy(() -> read(CAROL + "#x app/user/carol\n"))
        .isInstanceOf(StartupException.class).hasMessageContaining("line 1");
  }

  @Test
  void aGrantThatIsNoNamespaceRefusesTheFileInOneLineNamingTheLine() {
    assertThatThrownBy(() -> read("\n\n" + CAROL + " app/user/carol team//blue\n"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("line 3").hasMessageContaining("grant 2 'team//blue' is not a valid namespace");
    // a line separator inside a grant is refused and shown escaped: the message stays one line
    assertThatThrownBy(() -> read(CAROL + " app/user/carol\u2028team/blue\n"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("line 1").hasMessageContaining("\\u2028")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\u2028").doesNotContain("\n"));
    assertThatThrownBy(() -> read(CAROL + " app/user/*\n"))
        .isInstanceOf(StartupException.class).hasMessageContaining("line 1").hasMessageContaining("wildcard");
  }

  @Test
  void aTokenNeedsAGrantAndSixteenCharacters() {
    assertThatThrownBy(() -> read(CAROL + " # only a comment\n"))
        .isInstanceOf(StartupException.class).hasMessageContaining("line 1").hasMessageContaining("TOKEN GRANT");
    assertThatThrownBy(() -> read("short app/user/x\n"))
        .isInstanceOf(StartupException.class).hasMessageContaining("shorter than 16");
    assertThatThrownBy(() -> read("# nothing but comments\n"))
        .isInstanceOf(StartupException.class).hasMessageContaining("no tokens");
  }
}

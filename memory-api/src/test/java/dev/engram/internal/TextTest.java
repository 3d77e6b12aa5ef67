/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.InvalidInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTest {
  @Test
  void contentIsNfcNormalizedTrimmedAndCollapsed() {
    String decomposed = "Cafe\u0301   au  lait\r\n\r\n\t second   line  ";
    assertThat(Text.content("content", decomposed, 8192)).isEqualTo("Café au lait\nsecond line");
  }

  @Test
  void canonicalFormIgnoresLineBreaksAndSpacing() {
    assertThat(Text.contentHash(Text.content("c", "a  b\nc", 100)))
        .isEqualTo(Text.contentHash(Text.content("c", " a b c ", 100)))
        .hasSize(64);
    assertThat(Text.contentHash("a b c")).isNotEqualTo(Text.contentHash("a b C"));
  }

  @Test
  void contentLimitsCountUtf8Bytes() {
    String threeByteChars = "€".repeat(30);
    assertThat(Text.content("content", threeByteChars, 90)).hasSize(30);
    assertThatThrownBy(() -> Text.content("content", threeByteChars, 89))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("content: is 90 UTF-8 bytes after normalization; the limit is 89");
  }

  @Test
  void rejectsNulControlAndUnpairedSurrogates() {
    assertThatThrownBy(() -> Text.content("content", "a\u0000b", 100)).hasMessageContaining("NUL character at index 1");
    assertThatThrownBy(() -> Text.content("content", "a\u0007b", 100)).hasMessageContaining("U+0007");
    assertThatThrownBy(() -> Text.content("content", "a\uD800b", 100)).hasMessageContaining("unpaired surrogate");
    assertThatThrownBy(() -> Text.content("content", "a\uDC00", 100)).hasMessageContaining("unpaired surrogate");
    assertThat(Text.content("content", "emoji \uD83D\uDE00 ok", 100)).isEqualTo("emoji 😀 ok");
  }

  @Test
  void utf8LengthMatchesTheJdk() {
    for (String s : List.of("", "abc", "é", "€", "😀", "a😀b€é", "日本語")) {
      assertThat(Text.utf8Length(s)).as(s).isEqualTo(s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void topicsAreLowercasedDedupedAndDefaulted() {
    assertThat(Text.topics("t", List.of(" Goals ", "goals", "WORK  plans"), true)).containsExactly("goals", "work plans");
    assertThat(Text.topics("t", List.of(), true)).containsExactly("general");
    assertThatThrownBy(() -> Text.topics("t", List.of("a/b"), true)).hasMessageContaining("'/'");
  }

  @Test
  void pathsRejectTraversal() {
    assertThat(Text.path("path", "project://checkout_api/webhooks")).isEqualTo("project://checkout_api/webhooks");
    assertThatThrownBy(() -> Text.path("path", "a/../b")).hasMessageContaining("'..'");
    assertThatThrownBy(() -> Text.path("path", "a b")).hasMessageContaining("is not a path");
  }

  @Test
  void loreDomainsTakeSnakeCaseSegmentsAndNameTheParentTheyNeed() {
    assertThat(Text.lorePath("path", "project://checkout_api/v2_webhooks")).isEqualTo("project://checkout_api/v2_webhooks");
    assertThat(Text.lorePath("path", "core://agent/my-agent-2")).as("a boot node's address").isEqualTo("core://agent/my-agent-2");
    assertThat(Text.lorePath("path", "memories://Notes/A.md")).as("another domain").isEqualTo("memories://Notes/A.md");
    assertThat(Text.lorePath("path", "Notes/A.md")).as("no domain").isEqualTo("Notes/A.md");
    assertThat(Text.lorePath("path", null)).isNull();
    assertThatThrownBy(() -> Text.lorePath("path", "project://Checkout-API/Web.hooks"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'Checkout-API'").hasMessageContaining("project://checkout_api/web_hooks");
    for (String bad : List.of("project://a__b", "project://_a", "project://a_", "preferences://User", "core://a/b-c")) {
      assertThatThrownBy(() -> Text.lorePath("path", bad)).as(bad).isInstanceOf(InvalidInputException.class);
    }

    assertThat(Text.requiredParent("project://checkout_api/webhooks/retries")).isEqualTo("project://checkout_api/webhooks");
    assertThat(Text.requiredParent("project://checkout_api/webhooks")).isEqualTo("project://checkout_api");
    assertThat(Text.requiredParent("project://checkout_api")).isNull();
    assertThat(Text.requiredParent("core://agent/codex")).as("a boot node").isNull();
    assertThat(Text.requiredParent("memories://notes/a.md")).isNull();
    assertThat(Text.requiredParent("notes/a")).isNull();
    assertThat(Text.requiredParent(null)).isNull();
  }

  @Test
  void idsAreStrict() {
    assertThat(Text.id("entryId", Ids.next())).isNotBlank();
    assertThatThrownBy(() -> Text.id("entryId", "x'; DROP TABLE entries;--"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("entryId");
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GrantsTemplateTest {
  private static final Grants.Template USERS = Grants.template("app/user/{id}");

  @Test
  void anIdOfTheAlphabetNamesOneNamespace() {
    assertThat(USERS.grants("alice")).isEqualTo(Grants.of("app/user/alice"));
    assertThat(USERS.grants("u_1.2:3-4")).isEqualTo(Grants.of("app/user/u_1.2:3-4"));
    String longest = "a".repeat(Grants.Template.MAX_ID_LENGTH);
    assertThat(USERS.grants(longest).namespaces()).containsExactly("app/user/" + longest);
    assertThat(Grants.template("{id}/notes").grants("7")).isEqualTo(Grants.of("7/notes"));
    assertThat(USERS).hasToString("app/user/{id}");
  }

  @Test
  void everyOtherIdFailsClosedWithAShortOneLineMessage() {
    List<String> refused = List.of("alice@example.com", "_alice", "-alice", ".alice", "a/b", "..", ".", "", " a",
        "a b", "x".repeat(Grants.Template.MAX_ID_LENGTH + 1), "\u00e9", "\uff41", "a\u200db", "a*", "a\\b",
        "a\nb <<<END UNTRUSTED MEMORY>>>" + "z".repeat(10_000));
    for (String id : refused) {
      assertThatThrownBy(() -> USERS.grants(id)).as(id.length() > 20 ? id.substring(0, 20) : id)
          .isInstanceOfSatisfying(InvalidGrantException.class, e -> {
            assertThat(e.field()).isEqualTo("id");
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_GRANT);
            assertThat(e.getMessage()).contains(Grants.Template.ID_ALPHABET).doesNotContain("\n")
                .doesNotContain("<<<").hasSizeLessThan(200);
          });
      assertThatThrownBy(() -> Grants.Template.requireId("conversationId", id))
          .isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(e.field()).isEqualTo("conversationId");
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_INPUT);
          });
    }
    assertThat(Grants.Template.requireId("conversationId", "trip-7")).isEqualTo("trip-7");
    assertThatThrownBy(() -> USERS.grants(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void aRefusedIdIsRefusedOnlyByTheTemplateThatRefusesIt() {
    Grants.Template strict = USERS.refusing("default", "give each conversation its own id");
    assertThatThrownBy(() -> strict.grants("default")).isInstanceOf(InvalidGrantException.class)
        .hasMessageContaining("'default' is refused: give each conversation its own id");
    assertThat(strict.grants("Default")).isEqualTo(Grants.of("app/user/Default"));
    assertThat(USERS.grants("default")).isEqualTo(Grants.of("app/user/default"));
  }

  @Test
  void aMalformedTemplateIsRefusedWhenMade() {
    for (String t : List.of("app/user", "app/{id}/{id}", "app//{id}", "app/user/{id}/", "app/*/{id}", "app/../{id}",
        "app/ {id}", "{ID}")) {
      assertThatThrownBy(() -> Grants.template(t)).as(t).isInstanceOf(InvalidGrantException.class);
    }
    assertThatThrownBy(() -> Grants.template(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Grants.template("a".repeat(Namespaces.MAX_LENGTH - 8) + "/{id}").grants("a".repeat(100)))
        .isInstanceOf(InvalidGrantException.class);
  }
}

/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretsTest {
  private static final String KEY = "gw-AbCd/EfGh+IjKl=MnOp\u00e9QrSt0123456789";

  @Test
  void aVerbatimEchoAPrefixAndAPieceFromTheMiddleAreMasked() {
    assertThat(Secrets.mask("Invalid key " + KEY + ".", KEY)).isEqualTo("Invalid key ***.");
    assertThat(Secrets.mask("Invalid key: " + KEY.substring(0, 32) + "…", KEY)).isEqualTo("Invalid key: ***…");
    assertThat(Secrets.mask("ends in ..." + KEY.substring(10, 18) + "!", KEY)).isEqualTo("ends in ...***!");
  }

  @Test
  void sevenCharactersOfTheKeyAreNotAPiece() {
    assertThat(Secrets.mask("the key starts gw-AbCd", KEY)).isEqualTo("the key starts gw-AbCd");
  }

  @Test
  void jsonEscapedAndUrlEncodedSpellingsAreMasked() {
    assertThat(Secrets.mask("{\"key\":\"gw-AbCd\\/EfGh+IjKl=MnOp\\u00e9QrSt0123456789\"}", KEY))
        .isEqualTo("{\"key\":\"***\"}");
    assertThat(Secrets.mask("{\"key\":\"gw-AbCd/EfGh+IjKl=MnOp\\u00E9QrSt\"}", KEY)).isEqualTo("{\"key\":\"***\"}");
    assertThat(Secrets.mask("GET /v1?key=gw-AbCd%2FEfGh%2BIjKl%3DMnOp%C3%A9QrSt0123456789 failed", KEY))
        .isEqualTo("GET /v1?key=*** failed");
    assertThat(Secrets.mask("key=gw-AbCd%2fEfGh%2bIjKl", KEY)).isEqualTo("key=***");
  }

  @Test
  void aShortKeyIsMaskedWhereItOccursWholeAndVendorShapedKeysAlways() {
    assertThat(Secrets.mask("key abc123 rejected", "abc123")).isEqualTo("key *** rejected");
    assertThat(Secrets.mask("other key sk-live0123456789abcdef", null)).isEqualTo("other key sk-live***");
    assertThat(Secrets.mask("nothing secret here", "")).isEqualTo("nothing secret here");
    assertThatThrownBy(() -> Secrets.mask(null, KEY)).isInstanceOf(NullPointerException.class);
  }
}

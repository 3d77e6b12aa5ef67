/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * The opaque reference a model uses to name one version of one entry: the entry id and version
 * number, packed (a UUID-shaped id in 16 bytes), with a check byte, in URL-safe base64 behind an
 * {@code m}. It names no scope. Decoding never trusts it: the engine still decides visibility, so a
 * reference to an entry the grants cannot see is simply not found.
 */
record EntryRef(String entryId, int version) {
  static final int MAX_LENGTH = 100;
  private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  private static final Pattern FORM = Pattern.compile("m[A-Za-z0-9_-]{4," + (MAX_LENGTH - 1) + "}");
  private static final byte UUID_ID = 1;
  private static final byte TEXT_ID = 2;

  String encode() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(24);
    if (UUID.matcher(entryId).matches()) {
      out.write(UUID_ID);
      String hex = entryId.replace("-", "");
      for (int i = 0; i < 32; i += 2) {
        out.write(Integer.parseInt(hex, i, i + 2, 16));
      }
    } else {
      byte[] id = entryId.getBytes(StandardCharsets.US_ASCII);
      out.write(TEXT_ID);
      out.write(id.length);
      out.write(id, 0, id.length);
    }
    long v = version;
    do {
      int b = (int) (v & 0x7F);
      v >>>= 7;
      out.write(v == 0 ? b : b | 0x80);
    } while (v != 0);
    byte[] body = out.toByteArray();
    out.write(check(body, body.length));
    return "m" + Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
  }

  /** The reference encoded in {@code text}, or null when it is not one this layer made. */
  static @Nullable EntryRef decode(String text) {
    if (!FORM.matcher(text).matches()) {
      return null;
    }
    byte[] b;
    try {
      b = Base64.getUrlDecoder().decode(text.substring(1));
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (b.length < 3 || (b[b.length - 1] & 0xFF) != check(b, b.length - 1)) {
      return null;
    }
    int p = 1;
    String id;
    if (b[0] == UUID_ID) {
      if (b.length < 1 + 16 + 2) {
        return null;
      }
      StringBuilder hex = new StringBuilder(36);
      for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
          hex.append('-');
        }
        hex.append(Character.forDigit((b[p + i] >> 4) & 0xF, 16)).append(Character.forDigit(b[p + i] & 0xF, 16));
      }
      id = hex.toString();
      p += 16;
    } else if (b[0] == TEXT_ID) {
      int len = b[p++] & 0xFF;
      if (len < 1 || p + len >= b.length) {
        return null;
      }
      id = new String(b, p, len, StandardCharsets.US_ASCII);
      if (!ID.matcher(id).matches()) {
        return null;
      }
      p += len;
    } else {
      return null;
    }
    long v = 0;
    int shift = 0;
    while (true) {
      if (p >= b.length - 1 || shift > 28) {
        return null;
      }
      int x = b[p++] & 0xFF;
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        break;
      }
      shift += 7;
    }
    if (p != b.length - 1 || v < 1 || v > Integer.MAX_VALUE) {
      return null;
    }
    EntryRef ref = new EntryRef(id, (int) v);
    return ref.encode().equals(text) ? ref : null;
  }

  private static int check(byte[] b, int length) {
    CRC32 crc = new CRC32();
    crc.update(b, 0, length);
    return (int) (crc.getValue() & 0xFF);
  }
}

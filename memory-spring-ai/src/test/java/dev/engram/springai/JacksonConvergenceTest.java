/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;

/**
 * The framework brings Jackson 2 modules of its own; on this classpath every Jackson jar is of the
 * one version Engram uses (jackson-annotations, versioned by minor only since 2.20, of the same minor).
 */
class JacksonConvergenceTest {
  @Test
  void oneJacksonVersion() throws IOException {
    Map<String, String> bundles = new TreeMap<>();
    Enumeration<URL> manifests = getClass().getClassLoader().getResources("META-INF/MANIFEST.MF");
    while (manifests.hasMoreElements()) {
      try (InputStream in = manifests.nextElement().openStream()) {
        var attributes = new Manifest(in).getMainAttributes();
        String name = attributes.getValue("Bundle-SymbolicName");
        if (name != null && name.startsWith("com.fasterxml.jackson.")) {
          bundles.put(name, attributes.getValue("Bundle-Version"));
        }
      }
    }
    String core = com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString();
    assertThat(bundles).containsKeys("com.fasterxml.jackson.core.jackson-core", "com.fasterxml.jackson.core.jackson-databind");
    bundles.forEach((name, version) -> {
      if (name.equals("com.fasterxml.jackson.core.jackson-annotations")) {
        assertThat(minor(version)).as(name).isEqualTo(minor(core));
      } else {
        assertThat(version).as(name).isEqualTo(core);
      }
    });
  }

  private static String minor(String version) {
    String[] parts = version.split("\\.");
    return parts[0] + "." + parts[1];
  }
}

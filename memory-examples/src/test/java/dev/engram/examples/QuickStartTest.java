package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.store.inmemory.InMemoryMemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class QuickStartTest {
  @Test
  void walkThroughShowsEveryStep() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    QuickStart.run(new InMemoryMemoryStore(), new PrintStream(buf, true, StandardCharsets.UTF_8));
    String out = buf.toString(StandardCharsets.UTF_8);
    assertThat(out)
        .contains("APPENDED  [ACTIVE v1 r1 [preferences]] Prefers metric units.")
        .contains("DEDUPED  revision still 3")
        .contains("[ACTIVE v2 r4 [preferences]] Prefers imperial units.")
        .contains("r1 CREATE: - -> Prefers metric units.")
        .contains("r4 UPDATE: Prefers metric units. -> Prefers imperial units.")
        .contains("[RETIRED v2 r4 [preferences]] Prefers imperial units.")
        .contains("active preferences now: 0")
        .contains("[SUPERSEDED v1 r1 [preferences]] Prefers metric units.")
        .contains("== scope revision: 5");
  }
}

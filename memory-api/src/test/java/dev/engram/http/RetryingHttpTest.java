/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parts of the shared client that need no server: the server's wait, the backoff and the settings. */
class RetryingHttpTest {
  private static HttpHeaders headers(String name, String value) {
    return HttpHeaders.of(Map.of(name, List.of(value)), (a, b) -> true);
  }

  @Test
  void retryAfterReadsSecondsFractionsHttpDatesAndMillisecondsAndIgnoresTheRest() {
    assertThat(RetryingHttp.retryAfter(headers("Retry-After", "2"))).isEqualTo(Duration.ofSeconds(2));
    assertThat(RetryingHttp.retryAfter(headers("Retry-After", " 1.5 "))).isEqualTo(Duration.ofMillis(1500));
    assertThat(RetryingHttp.retryAfter(headers("retry-after-ms", "250"))).isEqualTo(Duration.ofMillis(250));
    assertThat(RetryingHttp.retryAfter(headers("Retry-After", "-3"))).isZero();
    assertThat(RetryingHttp.retryAfter(headers("Retry-After", "soon"))).isZero();
    assertThat(RetryingHttp.retryAfter(HttpHeaders.of(Map.of(), (a, b) -> true))).isZero();
    String inAMinute = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(60));
    assertThat(RetryingHttp.retryAfter(headers("Retry-After", inAMinute)))
        .isBetween(Duration.ofSeconds(55), Duration.ofSeconds(60));
    String past = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).minusSeconds(60));
    assertThat(RetryingHttp.retryAfter(headers("Retry-After", past))).isZero();
  }

  @Test
  void theWaitDoublesWithAtMostAQuarterOfJitterStaysWithinTheBoundAndHonoursTheServer() {
    RetryingHttp http = new RetryingHttp(HttpClient.newHttpClient(), Duration.ofSeconds(1), 10, Duration.ofMillis(100));
    for (int i = 0; i < 200; i++) {
      assertThat(http.wait(1, Duration.ZERO)).isBetween(Duration.ofMillis(100), Duration.ofMillis(125));
      assertThat(http.wait(3, Duration.ZERO)).isBetween(Duration.ofMillis(400), Duration.ofMillis(500));
      assertThat(http.wait(3, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
      assertThat(http.wait(10, Duration.ZERO)).isEqualTo(RetryingHttp.MAX_WAIT);
    }
    assertThat(new RetryingHttp(HttpClient.newHttpClient(), Duration.ofSeconds(1), 3, Duration.ZERO).wait(2, Duration.ZERO))
        .isZero();
  }

  @Test
  void settingsOutOfRangeAreRefused() {
    HttpClient client = HttpClient.newHttpClient();
    assertThatThrownBy(() -> new RetryingHttp(client, Duration.ZERO, 3, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("timeout");
    assertThatThrownBy(() -> new RetryingHttp(client, Duration.ofSeconds(1), 0, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxAttempts");
    assertThatThrownBy(() -> new RetryingHttp(client, Duration.ofSeconds(1), 3, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("backoff");
    assertThat(new RetryingHttp(client, Duration.ofSeconds(1), 3, Duration.ZERO).attempts(2)).isEqualTo(" (attempt 2 of 3)");
    assertThat(new RetryingHttp(client, Duration.ofSeconds(1), 1, Duration.ZERO).attempts(1)).isEmpty();
  }
}

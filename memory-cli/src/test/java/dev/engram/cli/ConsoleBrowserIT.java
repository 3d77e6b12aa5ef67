/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.File;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}),
 * served by the packaged jar as a child process over a SQLite file. Screenshots land in
 * {@code target/screenshots}.
 */
class ConsoleBrowserIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final String GRANT = "app/user/u1";
  private static final String SCRIPT = "<script>document.title='owned'</script> is how the note starts";

  /** Selenium's note that it has no DevTools binding for this Chromium version; the tests use none. */
  private static final java.util.logging.Logger DEVTOOLS = java.util.logging.Logger.getLogger("org.openqa.selenium.devtools");

  @TempDir static Path dir;
  static EngramJar.RunningConsole console;
  static ChromeDriver browser;
  static String corrected;
  static String hostile;

  @BeforeAll
  static void start() throws Exception {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!present && System.getenv("CI") != null) {
      throw new AssertionError("CI is set but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing: the console's"
          + " browser tests must run in CI (.ci/run installs chromium and chromium-driver)");
    }
    Assumptions.assumeTrue(present, "no " + CHROMIUM + " / " + CHROMEDRIVER
        + ": apt-get install chromium chromium-driver to run the console's browser tests");

    DEVTOOLS.setLevel(java.util.logging.Level.SEVERE);
    Path db = dir.resolve("memory.db");
    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(db)).reasoner(new DeterministicReasoner()).build()) {
      Grants g = Grants.of(GRANT);
      MemoryEntry units = engram.write(g, "Prefers metric units for every recipe.",
          WriteOptions.builder().topicsHint("preferences").build()).entry();
      engram.correct(g, units.entryId(), "Prefers imperial units for every recipe.");
      corrected = units.entryId();
      engram.write(g, "Travels to Lisbon each spring.", WriteOptions.builder().topicsHint("travel").build());
      engram.write(Grants.of("app/user/u2"), "Someone else's secret recipe.");
      hostile = engram.write(g, SCRIPT, WriteOptions.builder().topicsHint("notes").build()).entry().entryId();
    }
    // what an application's model-backed reasoner left: usage of the granted tenant and of another one
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      for (String scope : List.of(GRANT, "app/user/u2")) {
        store.inTransaction(scope, tx -> {
          tx.addModelUsage(List.of(new dev.engram.ModelUsageRow(scope, java.time.LocalDate.parse("2031-05-06"),
              "openai", "gpt-4.1-mini", "tag", 3, 1200, 90, 1)));
          return null;
        });
      }
    }
    // the memory above was written without an embedder, and the console runs without one too
    console = EngramJar.RunningConsole.start(dir, "--store", "sqlite:" + db, "--grant", GRANT, "--embedder", "none");

    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort()
        .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1280,1000", "--user-data-dir=" + dir.resolve("chromium-profile"));
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    browser.manage().timeouts().implicitlyWait(Duration.ofSeconds(2));
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (console != null) {
      console.close();
    }
  }

  private static void screenshot(String name) throws IOException {
    Path out = Path.of(System.getProperty("engram.screenshots", "target/screenshots"));
    Files.createDirectories(out);
    File shot = browser.getScreenshotAs(OutputType.FILE);
    Files.copy(shot.toPath(), out.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  /** Clicks a link or button and waits until the page it leads to has replaced the current one. */
  private static void go(WebElement target) {
    WebElement page = browser.findElement(By.tagName("html"));
    target.click();
    new WebDriverWait(browser, Duration.ofSeconds(20)).until(ExpectedConditions.stalenessOf(page));
  }

  private static void signIn() {
    browser.get(console.url);
    assertThat(browser.getCurrentUrl()).as("the token leaves the address bar").doesNotContain("token=");
  }

  @Test
  void withoutTheTokenNothingIsServed() throws Exception {
    browser.manage().deleteAllCookies();
    browser.get(console.base() + "/entry?id=" + corrected);
    assertThat(browser.findElement(By.tagName("body")).getText()).contains("needs its access token")
        .doesNotContain("imperial");
    browser.get(console.base() + "/?token=wrong");
    assertThat(browser.findElement(By.tagName("body")).getText()).contains("needs its access token");
    screenshot("console-refused");

    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(console.base() + "/")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(401);
    assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
        csp -> assertThat(csp).contains("frame-ancestors 'none'").contains("default-src 'none'"));
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");

    // the token buys a cookie, and the cookie alone does not allow a change without the CSRF token
    HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(console.url)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(login.statusCode()).isEqualTo(303);
    String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(setCookie).contains("HttpOnly").contains("SameSite=Strict");
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    HttpResponse<String> forged = http.send(HttpRequest.newBuilder(URI.create(console.base() + "/retire"))
            .header("Cookie", cookie).header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("id=" + corrected)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(rawGet("/", cookie, "attacker.example")).as("another Host name (DNS rebinding)").startsWith("HTTP/1.1 421");
    assertThat(rawGet("/", cookie, URI.create(console.base()).getAuthority())).startsWith("HTTP/1.1 200");
    assertThat(rawGet("/scope?s=app%2Fuser%2Fu2", cookie, URI.create(console.base()).getAuthority()))
        .as("a scope outside the grants").startsWith("HTTP/1.1 404");
  }

  /** A GET with a Host header of our choosing (HttpClient does not allow setting it). */
  private static String rawGet(String path, String cookie, String host) throws IOException {
    URI base = URI.create(console.base());
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nCookie: " + cookie
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void browseToAnEntryAndRollItBack() throws Exception {
    signIn();
    Cookie session = browser.manage().getCookieNamed(Console.COOKIE);
    assertThat(session.isHttpOnly()).isTrue();
    assertThat(session.getSameSite()).isEqualTo("Strict");
    assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Scopes");
    assertThat(browser.findElement(By.tagName("main")).getText()).contains(GRANT).doesNotContain("app/user/u2");
    screenshot("console-scopes");

    go(browser.findElement(By.linkText(GRANT)));
    go(browser.findElement(By.linkText("preferences")));
    go(browser.findElement(By.partialLinkText("Prefers imperial units")));
    assertThat(browser.findElement(By.id("content")).getText()).isEqualTo("Prefers imperial units for every recipe.");
    List<WebElement> events = browser.findElements(By.cssSelector("#history .event"));
    assertThat(events).hasSize(2);
    WebElement update = events.get(0);
    assertThat(update.findElement(By.className("kind")).getText()).isEqualTo("update");
    assertThat(update.findElement(By.tagName("del")).getText()).contains("metric");
    assertThat(update.findElement(By.tagName("ins")).getText()).contains("imperial");
    screenshot("console-entry-before-rollback");

    WebElement create = events.get(1);
    assertThat(create.findElement(By.className("kind")).getText()).isEqualTo("create");
    go(create.findElement(By.xpath(".//button[text()='Roll back to this version']")));

    assertThat(browser.findElement(By.className("notice")).getText()).isEqualTo("Rolled back: version 3 is now current.");
    assertThat(browser.findElement(By.id("content")).getText()).isEqualTo("Prefers metric units for every recipe.");
    assertThat(browser.findElements(By.cssSelector("#versions tbody tr"))).hasSize(3);
    List<WebElement> after = browser.findElements(By.cssSelector("#history .event"));
    assertThat(after).hasSize(3);
    assertThat(after.get(0).findElement(By.className("kind")).getText()).isEqualTo("rollback");
    assertThat(after.get(0).getText()).contains("→ v3");
    screenshot("console-entry-after-rollback");

    // retire and reactivate from the same page
    go(browser.findElement(By.xpath("//button[text()='Retire']")));
    screenshot("console-retired");
    assertThat(browser.findElement(By.tagName("main")).getText()).startsWith("Retired.");
    assertThat(browser.findElement(By.cssSelector("h1 .badge")).getText()).isEqualTo("retired");
    go(browser.findElement(By.xpath("//button[text()='Reactivate']")));
    assertThat(browser.findElement(By.cssSelector("h1 .badge")).getText()).isEqualTo("active");
  }

  @Test
  void searchShowsModeAndMatchedBy() throws Exception {
    signIn();
    go(browser.findElement(By.linkText("Search")));
    browser.findElement(By.name("q")).sendKeys("Lisbon spring");
    new Select(browser.findElement(By.name("mode"))).selectByValue("fts");
    go(browser.findElement(By.xpath("//form[@action='/search']//button")));
    assertThat(browser.findElement(By.id("search-summary")).getText()).startsWith("mode fts").contains("1 hit");
    List<WebElement> rows = browser.findElements(By.cssSelector("#hits tbody tr"));
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).findElement(By.className("matched")).getText()).isEqualTo("fts#1");
    assertThat(rows.get(0).getText()).contains("Travels to Lisbon each spring.");
    screenshot("console-search");

    new Select(browser.findElement(By.name("mode"))).selectByValue("vector");
    go(browser.findElement(By.xpath("//form[@action='/search']//button")));
    assertThat(browser.findElement(By.className("error")).getText()).as("no embedder, no silent fallback")
        .containsIgnoringCase("vector");
  }

  @Test
  void storedMarkupIsShownAsText() throws Exception {
    signIn();
    browser.get(console.base() + "/entry?id=" + hostile);
    assertThat(browser.findElement(By.id("content")).getText()).isEqualTo(SCRIPT);
    assertThat(browser.getTitle()).doesNotContain("owned");
    assertThat(browser.findElements(By.cssSelector("main script"))).isEmpty();
    assertThat(browser.getPageSource()).contains("&lt;script&gt;document.title=");
    screenshot("console-escaped");
  }

  @Test
  void contextPreviewAndCurationStatus() throws Exception {
    signIn();
    browser.get(console.base() + "/context?q=" + "recipe%20units" + "&bytes=1000");
    assertThat(browser.findElement(By.id("context-summary")).getText()).matches("ready: \\d+ of 1000 bytes · 1 citation");
    assertThat(browser.findElement(By.id("context")).getText()).contains("UNTRUSTED MEMORY").contains("units");
    screenshot("console-context");

    go(browser.findElement(By.linkText("Curation")));
    assertThat(browser.findElement(By.id("dirty")).getText()).contains(GRANT).contains("preferences")
        .contains("travel").contains("never");
    screenshot("console-curation");
  }

  @Test
  void usageShowsTheGrantedTenantsModelCallsOnly() throws Exception {
    signIn();
    go(browser.findElement(By.linkText("Usage")));
    assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Model usage");
    List<WebElement> rows = browser.findElements(By.cssSelector("#usage tbody tr"));
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getText()).contains(GRANT).contains("2031-05-06").contains("gpt-4.1-mini").contains("tag")
        .contains("1200").doesNotContain("app/user/u2");
    assertThat(browser.findElement(By.id("usage-calls")).getText()).isEqualTo("3");
    screenshot("console-usage");

    browser.findElement(By.name("from")).sendKeys("2031-05-07");
    go(browser.findElement(By.xpath("//form[@action='/usage']//button")));
    assertThat(browser.findElement(By.id("usage-status")).getText()).isEqualTo("No model usage recorded.");
    browser.get(console.base() + "/usage?from=May");
    assertThat(browser.findElement(By.className("error")).getText()).contains("expected a day as yyyy-mm-dd");
  }
}

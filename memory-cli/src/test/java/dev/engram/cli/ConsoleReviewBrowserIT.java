/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ReviewItem;
import dev.engram.SourceRecord;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.IncubateRequest;
import dev.engram.spi.IncubatedExperience;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's review page in a real headless Chromium, served by the packaged jar over a SQLite file
 * whose inbox holds two incubated experience items: each is listed with its diff, one is approved and
 * then reaches the context preview, the other is rejected with a reason; a POST without the CSRF token
 * and a decision on a stale version are refused and change nothing.
 */
class ConsoleReviewBrowserIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final String GRANT = "app/user/u1";
  private static final java.util.logging.Logger DEVTOOLS = java.util.logging.Logger.getLogger("org.openqa.selenium.devtools");

  @TempDir static Path dir;
  static EngramJar.RunningConsole console;
  static ChromeDriver browser;
  static List<ReviewItem> pending;

  /** Incubates one experience per task outcome, with the lesson taken from the outcome's text. */
  private static final class Incubating implements Reasoner {
    private final DeterministicReasoner deterministic = new DeterministicReasoner();

    @Override
    public TagProposal tag(TagRequest request) {
      return deterministic.tag(request);
    }

    @Override
    public boolean incubates() {
      return true;
    }

    @Override
    public List<IncubatedExperience> incubate(IncubateRequest request) {
      return request.window().stream().map(s -> new IncubatedExperience("Running the " + s.sessionId() + " task",
          "Did it the usual way", "It failed", "Lesson about " + s.text(), List.of(s.id()))).toList();
    }
  }

  @BeforeAll
  static void start() throws Exception {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!present && System.getenv("CI") != null) {
      throw new AssertionError("CI is set but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing");
    }
    Assumptions.assumeTrue(present, "no " + CHROMIUM + " / " + CHROMEDRIVER
        + ": apt-get install chromium chromium-driver to run the console's browser tests");
    DEVTOOLS.setLevel(java.util.logging.Level.SEVERE);
    Path db = dir.resolve("memory.db");
    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(db)).reasoner(new Incubating()).build()) {
      Grants g = Grants.of(GRANT);
      engram.captureAll(g, List.of(
          SourceRecord.taskOutcome("deploy", "agent", "deploying the ledger before migrating").id("o-1"),
          SourceRecord.taskOutcome("backup", "agent", "nightly backups of the wiki").id("o-2")));
      pending = engram.experience().incubate(g).pending();
      assertThat(pending).hasSize(2);
    }
    console = EngramJar.RunningConsole.start(dir, "--store", "sqlite:" + db, "--grant", GRANT, "--embedder", "none");
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1280,1000", "--user-data-dir=" + dir.resolve("chromium-profile"));
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    browser.manage().timeouts().implicitlyWait(Duration.ofSeconds(2));
  }

  @AfterAll
  static void stop() {
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

  private static void go(WebElement target) {
    WebElement page = browser.findElement(By.tagName("html"));
    target.click();
    new WebDriverWait(browser, Duration.ofSeconds(20)).until(ExpectedConditions.stalenessOf(page));
  }

  private static WebElement item(String id) {
    return browser.findElement(By.id("item-" + id));
  }

  @Test
  void aReviewerApprovesOneItemRejectsTheOtherAndStaleOrForgedDecisionsAreRefused() throws Exception {
    browser.get(console.url);
    go(browser.findElement(By.linkText("Review")));
    assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Review");
    assertThat(browser.findElements(By.cssSelector(".review-item"))).hasSize(2);
    WebElement deploy = item(pending.get(0).id());
    assertThat(deploy.findElement(By.className("summary")).getText())
        .isEqualTo("new experience: Lesson about deploying the ledger before migrating");
    assertThat(deploy.findElements(By.cssSelector("table.changes tbody tr"))).extracting(r -> r.findElements(
        By.tagName("td")).get(1).getText()).containsExactly("situation", "action", "outcome", "lesson");
    assertThat(deploy.findElements(By.tagName("ins"))).extracting(WebElement::getText)
        .contains("Lesson about deploying the ledger before migrating");
    screenshot("console-review");
    String page = browser.getPageSource();
    Matcher csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(csrf.find()).isTrue();
    String cookie = "engram_console=" + browser.manage().getCookieNamed(Console.COOKIE).getValue();

    // without the CSRF token a POST is refused and nothing changes
    HttpClient http = HttpClient.newHttpClient();
    assertThat(post(http, cookie, "/review/approve", "id=" + pending.get(0).id() + "&version=1").statusCode())
        .isEqualTo(403);

    go(deploy.findElement(By.xpath(".//form[contains(@action,'/review/approve')]//button")));
    assertThat(browser.findElement(By.id("review-done")).getText())
        .startsWith("Approved new experience: Lesson about deploying the ledger");
    assertThat(browser.findElements(By.cssSelector(".review-item"))).hasSize(1);

    // the approved version again: a stale decision is refused with a conflict, nothing changes
    HttpResponse<String> stale = post(http, cookie, "/review/approve",
        "csrf=" + csrf.group(1) + "&id=" + pending.get(0).id() + "&version=1");
    assertThat(stale.statusCode()).isEqualTo(409);
    assertThat(stale.body()).contains("not the expected 1");

    WebElement backup = item(pending.get(1).id());
    backup.findElement(By.name("reason")).sendKeys("backups are not a lesson");
    go(backup.findElement(By.xpath(".//form[contains(@action,'/review/reject')]//button")));
    assertThat(browser.findElement(By.id("review-done")).getText())
        .isEqualTo("Rejected new experience: Lesson about nightly backups of the wiki.");
    assertThat(browser.findElement(By.id("review-status")).getText()).isEqualTo("Nothing waits for review.");
    screenshot("console-review-done");

    browser.get(console.base() + "/context?q=deploying%20ledger%20migrating&bytes=4000");
    assertThat(browser.findElement(By.id("context")).getText()).contains("| experience")
        .contains("Lesson: Lesson about deploying the ledger before migrating")
        .doesNotContain("nightly backups");
    assertThat(browser.findElements(By.cssSelector("li.experience"))).hasSize(1);
  }

  private static HttpResponse<String> post(HttpClient http, String cookie, String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(console.base() + path)).header("Cookie", cookie)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Control UI at {@code /} in a real headless Chromium (Debian's package and its ChromeDriver) against the real
 * gateway, its Telegram channel on the fake Bot API and a scripted model (SPEC OP-3, OP-8, CH-0, OUT-8). Each test
 * starts its own gateway on a new port: a new origin, so nothing is remembered between tests.
 */
class ControlUiBrowserTest extends TelegramGatewayFixture {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String AUTH = "control-ui-token-0123456789";
    /** Where the README's screenshot is written (copied to docs/control-ui.png). */
    private static final Path SCREENSHOT = Path.of("target", "control-ui.png");

    private static ChromeDriver browser;
    private static Path profile;

    private int port;

    @BeforeAll
    static void startBrowser() throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String why = "no " + CHROMIUM + " or " + CHROMEDRIVER
                    + "; install them with: apt-get install -y chromium chromium-driver";
            if ("1".equals(System.getenv("CLAWGATE_REQUIRE_BROWSER")))
                Assertions.fail("CLAWGATE_REQUIRE_BROWSER=1 but " + why);
            System.out.println(
                    "ControlUiBrowserTest skipped: " + why + " (CI sets CLAWGATE_REQUIRE_BROWSER=1 and fails instead)");
            Assumptions.abort(why);
        }
        // an explicit driver and binary: Selenium Manager never runs, so nothing is fetched from the network
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        profile = Files.createTempDirectory("clawgate-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1400,1100",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1400, 1100));
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) browser.quit();
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @AfterEach
    void leaveThePage() {
        if (browser != null) browser.get("about:blank");
    }

    /** Telegram with pairing for strangers (alice, 111, is allowed), the HTTP server with {@link #AUTH}. */
    private void startGateway() throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("bot_token", TOKEN, "api_base", tg.apiBase()));
        ChannelSettings telegram = new ChannelSettings(
                "telegram",
                new AccessSettings(DmPolicy.PAIRING, List.of("111"), GroupPolicy.OPEN, List.of(), true),
                Map.of(),
                options,
                Map.of(),
                ChannelOutput.defaults());
        ClawgateConfig cfg = GatewayHarness.config(dir, model.baseUrl(), AUTH).withChannel(telegram);
        port = serve(cfg);
    }

    private static WebDriverWait waiting() {
        WebDriverWait w = new WebDriverWait(browser, Duration.ofSeconds(20));
        w.pollingEvery(Duration.ofMillis(50));
        w.ignoring(StaleElementReferenceException.class);
        return w;
    }

    private static String status() {
        return browser.findElement(By.id("status")).getAttribute("data-state");
    }

    private void openWithToken(String token) {
        browser.get("http://127.0.0.1:" + port + "/");
        waiting().until(d -> "refused".equals(status()));
        browser.findElement(By.id("token-input")).sendKeys(token);
        browser.findElement(By.id("token-save")).click();
    }

    /**
     * Clicks the element {@code css} finds once it is there; the page redraws tables, so a stale one is found again.
     */
    private static void click(String css) {
        waiting().until(d -> {
            d.findElement(By.cssSelector(css)).click();
            return true;
        });
    }

    @Test
    void withoutTheTokenThePageShowsNothingButTheTokenPrompt() throws Exception {
        // SPEC OP-3: guarded by gateway.auth_token; a wrong token is refused
        startGateway();
        browser.get("http://127.0.0.1:" + port + "/");
        waiting().until(d -> "refused".equals(status()));
        assertThat(browser.findElement(By.id("token-form")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("panes")).isDisplayed()).isFalse();
        assertThat(browser.findElements(By.cssSelector("#channels tbody tr"))).isEmpty();
        browser.findElement(By.id("token-input")).sendKeys("not-the-token");
        browser.findElement(By.id("token-save")).click();
        waiting().until(d -> d.findElement(By.id("token-error")).isDisplayed());
        assertThat(browser.findElement(By.id("token-error")).getText()).contains("refused");
        assertThat(browser.findElement(By.id("panes")).isDisplayed()).isFalse();
    }

    @Test
    void aMessageThroughTelegramHasATurnWhoseTimelineListsItsPhasesWithDurations() throws Exception {
        // SPEC OP-8, OP-3: the turn inspector's timeline in the Control UI
        model.enqueue(Reply.text("Hello Alice, noted."));
        startGateway();
        openWithToken(AUTH);
        waiting().until(d -> "ok".equals(status()));
        tg.sendText(dm, alice, "hello control room");
        awaitSent(dm, 1);
        String turnId = openTurnOf("hello control room");
        List<WebElement> phases = browser.findElements(By.cssSelector("#timeline li.phase"));
        assertThat(phases).hasSizeGreaterThanOrEqualTo(2);
        List<String> names =
                phases.stream().map(p -> p.getAttribute("data-name")).toList();
        assertThat(names).contains("model", "send");
        for (WebElement p : phases) {
            assertThat(p.findElement(By.className("duration")).getText()).matches("[0-9.]+ ms");
        }
        assertThat(browser.findElement(By.id("timeline-title")).getText()).contains("turn " + turnId);
    }

    /** Waits for the turn whose text starts with {@code text}, opens its timeline; its id. */
    private static String openTurnOf(String text) {
        WebElement turn = waiting()
                .until(d -> d.findElements(By.cssSelector("#turns tr[data-turn-id]")).stream()
                        .filter(r -> r.getText().contains(text))
                        .findFirst()
                        .orElse(null));
        String turnId = turn.getAttribute("data-turn-id");
        click("#turns tr[data-turn-id='" + turnId + "']");
        waiting().until(d -> turnId.equals(d.findElement(By.id("timeline")).getAttribute("data-turn-id")));
        return turnId;
    }

    @Test
    void anOperatorSeesTheTelegramChannelHealthyResendsAFailedReplyAndApprovesAPairing() throws Exception {
        // SPEC OP-3, CH-0, OUT-8, IN-5: the Control UI end to end over the fake Telegram
        model.enqueue(Reply.text("Hello Alice, noted."), Reply.text("This one could not be sent at first."));
        startGateway();
        gateway.store()
                .memory()
                .store(MemoryScope.global(), "owner_timezone", "The owner lives in Lisbon (Europe/Lisbon)", "core");
        openWithToken(AUTH);

        // the channel, healthy
        waiting().until(d -> "ok".equals(status()));
        WebElement channel = waiting()
                .until(d ->
                        d.findElement(By.cssSelector("#channels tr[data-channel='telegram'][data-healthy='true']")));
        assertThat(channel.getText()).contains("telegram", "default", "healthy");
        tg.sendText(dm, alice, "hello control room");
        awaitSent(dm, 1);

        // a reply the platform refused: listed with its reason, resent from the page
        tg.failNext("sendMessage", 403, 0);
        tg.sendText(dm, alice, "second message");
        await().until(() -> gateway.store().outbox().counts().get(OutboxState.FAILED) == 1L);
        WebElement failed = waiting().until(d -> d.findElement(By.cssSelector("#outbox tr[data-state='failed']")));
        assertThat(failed.findElement(By.className("reason")).getText()).contains("blocked");

        // a stranger's pairing request, listed
        TelegramUser bob = tg.user(222, "bob");
        TelegramChat bobDm = tg.privateChat(bob);
        tg.sendText(bobDm, bob, "may I talk to you?");
        awaitSent(bobDm, 1);
        String code = gateway.store().pairing().list(false).getFirst().code();
        waiting().until(d -> d.findElement(By.cssSelector("#pairing tr[data-code='" + code + "']")));

        // the screenshot for the README: a session's transcript, a turn's timeline and a memory search on screen
        waiting()
                .until(d -> d.findElements(By.cssSelector("#sessions li[data-session-id]")).stream()
                        .filter(li -> li.getText().startsWith("telegram_111_111"))
                        .peek(WebElement::click)
                        .findFirst()
                        .orElse(null));
        waiting().until(d -> !d.findElements(By.cssSelector("#transcript li")).isEmpty());
        openTurnOf("hello control");
        browser.findElement(By.id("memory-q")).sendKeys("Lisbon");
        browser.findElement(By.cssSelector("#memory-search button")).click();
        waiting().until(d -> !d.findElements(By.cssSelector("#memory tbody tr")).isEmpty());
        browser.executeScript("window.scrollTo(0, 0)");
        // the window as tall as the page (twice: the first resize may reflow it), so the screenshot shows it all
        for (int i = 0; i < 2; i++) {
            Number height = (Number) browser.executeScript("return document.documentElement.scrollHeight");
            browser.manage().window().setSize(new Dimension(1400, height.intValue() + 160));
        }
        browser.executeScript("window.scrollTo(0, 0)");
        Files.createDirectories(SCREENSHOT.getParent());
        Files.write(SCREENSHOT, browser.getScreenshotAs(OutputType.BYTES));

        // the failed reply, resent from the page
        click("#outbox tr[data-state='failed'] button.resend");
        assertThat(awaitSent(dm, 2).get(1).text()).isEqualTo("This one could not be sent at first.");
        waiting().until(d -> d.findElement(By.id("outbox-message")).getText().contains("pending again"));

        // the pairing, approved
        click("#pairing tr[data-code='" + code + "'] button.approve");
        await().until(() -> gateway.store().pairing().isApproved("telegram", "default", "222"));
        waiting().until(d -> d.findElement(By.id("pairing-message")).getText().contains("approved"));
        waiting()
                .until(d ->
                        d.findElements(By.cssSelector("#pairing tr[data-code]")).isEmpty());
    }
}

package io.queuegate.system;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.stream.Stream;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium, the system's own ({@code apt-get install chromium chromium-driver}), driven through the
 * system's chromedriver: nothing is downloaded at run time. Each browser has its own driver and a fresh profile,
 * so no page state leaks from one test to the next. Screenshots go to
 * {@code target/screenshots/}.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("queuegate.chromium", "/usr/bin/chromium"));

    static final Path CHROMEDRIVER = Path.of(System.getProperty("queuegate.chromedriver", "/usr/bin/chromedriver"));

    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    /** Long enough for a poll or two and an admission tick on a busy two-core machine. */
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    final ChromeDriver driver;

    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** A desktop-sized window. */
    static Browser desktop() {
        return open(options -> options.addArguments("--window-size=1280,900"));
    }

    /** A desktop-sized window whose requests say {@code Accept-Language: <languages>}, e.g. {@code "ko-KR,ko"}. */
    static Browser desktop(String languages) {
        return open(options -> {
            options.addArguments("--window-size=1280,900", "--lang=" + languages.split(",")[0]);
            options.setExperimentalOption("prefs", Map.of("intl.accept_languages", languages));
            return options;
        });
    }

    /** A phone: a 390 × 844 CSS-pixel touch screen that honours the page's viewport meta tag. */
    static Browser phone() {
        return open(options -> options.setExperimentalOption("mobileEmulation", Map.of("deviceMetrics",
                Map.of("width", 390, "height", 844, "pixelRatio", 2.0, "mobile", true, "touch", true))));
    }

    private static Browser open(Function<ChromeOptions, ChromeOptions> size) {
        requireInstalled(CHROMIUM);
        requireInstalled(CHROMEDRIVER);
        Path profile;
        try {
            profile = Files.createTempDirectory("queuegate-chromium-");
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
            .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // a driver of its own: quitting a browser stops the driver that started it
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
        return new Browser(new ChromeDriver(service, size.apply(options)), profile);
    }

    private static void requireInstalled(Path executable) {
        if (!Files.isExecutable(executable)) {
            throw new IllegalStateException("The browser tests need Chromium and its driver: " + executable
                    + " is missing. Install them with `apt-get install -y chromium chromium-driver` (.ci/run does), "
                    + "or point -Dqueuegate.chromium and -Dqueuegate.chromedriver at them.");
        }
    }

    void open(String url) {
        this.driver.get(url);
    }

    WebElement find(String css) {
        return this.driver.findElement(By.cssSelector(css));
    }

    String text(String css) {
        return find(css).getText();
    }

    boolean visible(String css) {
        List<WebElement> found = this.driver.findElements(By.cssSelector(css));
        return !found.isEmpty() && found.getFirst().isDisplayed();
    }

    /** Waits for a state of the page; fails with the page's own words when it does not come. */
    <T> T await(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(this.driver, PATIENCE, Duration.ofMillis(100))
            .withMessage(() -> what + "; the page shows: " + this.find("main").getText())
            .until(condition);
    }

    void awaitText(String css, String expected) {
        await(css + " says \"" + expected + "\"", d -> visible(css) && text(css).contains(expected));
    }

    Object script(String script, Object... args) {
        return ((JavascriptExecutor) this.driver).executeScript(script, args);
    }

    /** Saves what the page shows now as {@code target/screenshots/<name>.png}. */
    Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            File shot = this.driver.getScreenshotAs(OutputType.FILE);
            Path target = SCREENSHOTS.resolve(name + ".png");
            Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The errors the browser logged (script errors, refused policies, failed loads), less the failed loads a
     * test provoked on purpose, named by their HTTP status (e.g. {@code "409"}).
     */
    List<String> consoleErrors(String... expectedStatuses) {
        List<String> errors = new ArrayList<>();
        for (LogEntry entry : this.driver.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() < Level.SEVERE.intValue()) {
                continue;
            }
            String message = entry.getMessage();
            boolean expected = Stream.of(expectedStatuses)
                .anyMatch(status -> message.contains("the server responded with a status of " + status));
            if (!expected) {
                errors.add(message);
            }
        }
        return errors;
    }

    @Override
    public void close() {
        try {
            this.driver.quit();
        }
        finally {
            try (Stream<Path> files = Files.walk(this.profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
            catch (IOException ex) {
                // a leftover temporary profile is harmless
            }
        }
    }
}

package io.queuegate.core.secret;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.queuegate.core.testing.TestSecrets;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class SecretPolicyTests {

    @Test
    void outsideTheDevProfileASecretNeedsThirtyTwoBytesAndMustNotBePublished() {
        assertThat(SecretPolicy.refusal("a".repeat(31), false)).contains("31 bytes");
        assertThat(SecretPolicy.refusal("a".repeat(32), false)).isNull();
        // bytes, not characters: 16 two-byte characters are 32 bytes
        assertThat(SecretPolicy.refusal("é".repeat(16), false)).isNull();
        assertThat(SecretPolicy.refusal(SecretPolicy.DEV_TOKEN_SECRET, false)).contains("written in the repository");
        assertThat(SecretPolicy.refusal(SecretPolicy.DEV_ADMIN_TOKEN, false)).contains("written in the repository");
        assertThat(SecretPolicy.refusal(null, false)).contains("empty");
        assertThat(SecretPolicy.refusal("  ", false)).contains("empty");
        assertThat(SecretPolicy.refusal(TestSecrets.random("t"), false)).isNull();
    }

    @Test
    void theDevProfileTakesAnyValueButNone() {
        assertThat(SecretPolicy.refusal(SecretPolicy.DEV_TOKEN_SECRET, true)).isNull();
        assertThat(SecretPolicy.refusal("short", true)).isNull();
        assertThat(SecretPolicy.refusal("", true)).isNotNull();
    }

    @Test
    void theRefusalNamesTheVariableAndStopsTheCaller() {
        MockEnvironment production = new MockEnvironment();
        assertThatIllegalStateException()
            .isThrownBy(() -> SecretPolicy.require("QUEUE_TOKEN_SECRET", "change-me-token-secret-0123", production))
            .withMessageStartingWith("QUEUE_TOKEN_SECRET must be set to a private value");
        MockEnvironment dev = new MockEnvironment();
        dev.setActiveProfiles("dev");
        assertThatNoException()
            .isThrownBy(() -> SecretPolicy.require("QUEUE_TOKEN_SECRET", SecretPolicy.DEV_TOKEN_SECRET, dev));
    }

    /**
     * Every default a service file, a script or the compose file gives a secret ({@code ${ADMIN_TOKEN:...}},
     * {@code ${QUEUE_TOKEN_SECRET:-...}}) is one the policy knows as published, so a deployment that forgot to set it
     * stops at start.
     */
    @Test
    void everyDefaultSecretWrittenInTheRepositoryIsKnownAsPublished() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Pattern fallback = Pattern.compile("\\$\\{(?:QUEUEGATE_)?(?:QUEUE_TOKEN_SECRET|ADMIN_TOKEN):-?([^}]*)}");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(PathsToRead::read).toList()) {
                Matcher matcher = fallback.matcher(Files.readString(file));
                while (matcher.find()) {
                    if (!matcher.group(1).isEmpty() && !matcher.group(1).startsWith("?")) {
                        found.add(matcher.group(1));
                    }
                }
            }
        }
        assertThat(found).as("the service files give defaults").isNotEmpty();
        assertThat(SecretPolicy.PUBLISHED).containsAll(found);
    }

    private static final class PathsToRead {

        static boolean read(Path path) {
            String name = path.getFileName().toString();
            return Files.isRegularFile(path) && !path.toString().contains("/target/")
                    && !path.toString().contains("/node_modules/") && !path.toString().contains("/.git/")
                    && (name.endsWith(".yml") || name.endsWith(".yaml") || name.endsWith(".sh")
                            || name.endsWith(".properties"));
        }
    }
}

package io.queuegate.core.token;

import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UserIdsTests {

    private static final Pattern ALLOWED = Pattern.compile(UserIds.ALLOWED);

    @Test
    void isValidAgreesWithThePatternRequestsAreCheckedWith() {
        Random random = new Random(5);
        int valid = 0;
        for (int i = 0; i < 200_000; i++) {
            int length = random.nextInt(UserIds.MAX_LENGTH + 3);
            StringBuilder id = new StringBuilder(length);
            for (int j = 0; j < length; j++) {
                // mostly allowed characters, some of every other code point below 0x180
                id.append(random.nextInt(8) == 0 ? (char) random.nextInt(0x180)
                        : "abcXYZ059._@:-".charAt(random.nextInt(14)));
            }
            String candidate = id.toString();
            boolean expected = ALLOWED.matcher(candidate).matches();
            assertThat(UserIds.isValid(candidate)).as("%s", candidate).isEqualTo(expected);
            valid += expected ? 1 : 0;
        }
        assertThat(valid).as("both kinds were tried").isBetween(10_000, 190_000);
        for (char c = 0; c < 0x2000; c++) {
            assertThat(UserIds.isValid("a" + c)).as("U+%04X", (int) c).isEqualTo(ALLOWED.matcher("a" + c).matches());
        }
        assertThat(UserIds.isValid(null)).isFalse();
        assertThat(UserIds.isValid("")).isFalse();
        assertThat(UserIds.isValid("x".repeat(64))).isTrue();
        assertThat(UserIds.isValid("x".repeat(65))).isFalse();
    }
}

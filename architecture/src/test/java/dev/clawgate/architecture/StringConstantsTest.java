package dev.clawgate.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** The literal scan the "core names no platform" rule relies on reads what the source wrote. */
class StringConstantsTest {
    static final class Sample {
        static final long BIG = 1L << 40;
        static final double HALF = 0.5;

        static String greet(String who) {
            return "hello, " + who + " from telegram";
        }
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void findsEveryLiteralOfAClassPastLongAndDoubleEntries() throws IOException {
        try (InputStream in = Sample.class.getResourceAsStream("StringConstantsTest$Sample.class")) {
            assertThat(StringConstants.of(in.readAllBytes())).anyMatch(s -> s.contains("from telegram"));
        }
        assertThat(ModuleArrowsTest.PLATFORM
                        .matcher("Telegram renders Markdown")
                        .find())
                .isTrue();
        assertThat(ModuleArrowsTest.PLATFORM.matcher("a circle of squares").find())
                .isFalse();
    }

    // SPEC OUT-4: each channel is an adapter in its own module; core and server name none
    @Test
    void refusesWhatIsNoClassFile() {
        assertThatThrownBy(() -> StringConstants.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}))
                .isInstanceOf(IOException.class);
    }
}

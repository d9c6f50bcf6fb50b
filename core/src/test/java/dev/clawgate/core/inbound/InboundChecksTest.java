package dev.clawgate.core.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.InboundMessage;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InboundChecksTest {
    @Test
    void emptyAndOversizedMessagesAreNamedAndMediaAloneIsFine() {
        // SPEC IN-4: a clear outcome for unusable input
        assertThat(InboundChecks.problem(InboundMessage.direct("t", "1", "a", " \n "))).hasValue("empty message: no text and no media");
        assertThat(InboundChecks.problem(InboundMessage.direct("t", "1", "a", "x".repeat(InboundChecks.MAX_TEXT_CHARS + 1))))
                .get().asString().contains("too long");
        assertThat(InboundChecks.problem(InboundMessage.direct("t", "1", "a", "x".repeat(InboundChecks.MAX_TEXT_CHARS)))).isEmpty();
        InboundMessage photo = new InboundMessage("1", "t", null, "a", null, "a", null, null, dev.clawgate.core.model.ChatType.DIRECT,
                true, null, "", List.of(new Attachment(Attachment.Kind.IMAGE, "image/png", "/tmp/p.png")), null);
        assertThat(InboundChecks.problem(photo)).isEmpty();
    }

    @Test
    void unpairedSurrogatesBecomeReplacementCharactersAndPairsSurvive() {
        // SPEC IN-4: invalid UTF-16 is repaired, never stored broken
        assertThat(InboundChecks.wellFormed(InboundMessage.direct("t", "1", "a", "\uD83D\uDE00 ok \uD83D x \uDE00")).text())
                .isEqualTo("\uD83D\uDE00 ok \uFFFD x \uFFFD");
        InboundMessage clean = InboundMessage.direct("t", "1", "a", "plain 日本語 😀");
        assertThat(InboundChecks.wellFormed(clean)).isSameAs(clean);
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = rnd.nextInt(20); j > 0; j--) sb.append((char) (rnd.nextBoolean() ? 0xD800 + rnd.nextInt(0x800) : 'a' + rnd.nextInt(26)));
            String fixed = InboundChecks.wellFormed(InboundMessage.direct("t", "1", "a", sb.toString())).text();
            assertThat(fixed.length()).as("seed %d", seed).isEqualTo(sb.length());
            assertThat(new String(fixed.getBytes(java.nio.charset.StandardCharsets.UTF_8), java.nio.charset.StandardCharsets.UTF_8))
                    .as("seed %d", seed).isEqualTo(fixed);
        }
    }
}

package dev.clawgate.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.InboundMessage;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InboundChecksTest {
    @Test
    void emptyMessagesAreNamedAndMediaAloneIsFine() {
        // SPEC IN-4: a clear outcome for unusable input
        assertThat(InboundChecks.problem(InboundMessage.direct("t", "1", "a", " \n ")))
                .hasValue("empty message: no text and no media");
        InboundMessage photo = new InboundMessage(
                "1",
                "t",
                null,
                "a",
                null,
                "a",
                null,
                null,
                dev.clawgate.core.model.ChatType.DIRECT,
                true,
                null,
                "",
                List.of(new Attachment(Attachment.Kind.IMAGE, "image/png", "/tmp/p.png")),
                null);
        assertThat(InboundChecks.problem(photo)).isEmpty();
    }

    @Test
    void theLengthRuleRefusesOneCharacterPastTheLimitWithBothNumbersAndTakesTheLimitItself() {
        // SPEC OP-10: messages.max_chars, counted in UTF-16 units as the platforms count
        for (int limit : new int[] {1, 50, InboundChecks.MAX_TEXT_CHARS}) {
            assertThat(InboundChecks.tooLong("x".repeat(limit), limit)).isEmpty();
            assertThat(InboundChecks.tooLong("x".repeat(limit + 1), limit))
                    .get()
                    .asString()
                    .startsWith("message too long: ")
                    .contains(
                            String.format(java.util.Locale.ROOT, "%,d characters", limit + 1),
                            String.format(java.util.Locale.ROOT, "the limit is %,d", limit));
        }
        assertThat(InboundChecks.tooLong("😀".repeat(25), 50)).isEmpty();
        assertThat(InboundChecks.tooLong("😀".repeat(26), 50)).isPresent();
    }

    @Test
    void aRefusalRecordKeepsWhoAndWhereAndNothingOfTheContent() {
        // SPEC OP-10: what is stored of a refused message does not grow with it; run again by a crash it fails as empty
        InboundMessage big = new InboundMessage(
                "9",
                "t",
                "acct",
                "alice",
                "Alice",
                "room",
                "thread",
                "scope",
                dev.clawgate.core.model.ChatType.GROUP,
                true,
                java.time.Instant.EPOCH,
                "x".repeat(500_000),
                List.of(new Attachment(Attachment.Kind.IMAGE, "image/png", "/tmp/p.png")),
                "{\"raw\":\"" + "y".repeat(500_000) + "\"}");
        InboundMessage kept = InboundChecks.refusalRecord(big);
        assertThat(kept.text()).isEmpty();
        assertThat(kept.attachments()).isEmpty();
        assertThat(kept.rawPayload()).isNull();
        assertThat(kept)
                .extracting(
                        InboundMessage::id,
                        InboundMessage::channel,
                        InboundMessage::account,
                        InboundMessage::sender,
                        InboundMessage::replyTarget,
                        InboundMessage::threadId,
                        InboundMessage::chatType)
                .containsExactly("9", "t", "acct", "alice", "room", "thread", dev.clawgate.core.model.ChatType.GROUP);
        assertThat(InboundChecks.problem(kept)).isPresent();
    }

    @Test
    void unpairedSurrogatesBecomeReplacementCharactersAndPairsSurvive() {
        // SPEC IN-4: invalid UTF-16 is repaired, never stored broken
        assertThat(InboundChecks.wellFormed(InboundMessage.direct("t", "1", "a", "\uD83D\uDE00 ok \uD83D x \uDE00"))
                        .text())
                .isEqualTo("\uD83D\uDE00 ok \uFFFD x \uFFFD");
        InboundMessage clean = InboundMessage.direct("t", "1", "a", "plain 日本語 😀");
        assertThat(InboundChecks.wellFormed(clean)).isSameAs(clean);
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = rnd.nextInt(20); j > 0; j--)
                sb.append((char) (rnd.nextBoolean() ? 0xD800 + rnd.nextInt(0x800) : 'a' + rnd.nextInt(26)));
            String fixed = InboundChecks.wellFormed(InboundMessage.direct("t", "1", "a", sb.toString()))
                    .text();
            assertThat(fixed.length()).as("seed %d", seed).isEqualTo(sb.length());
            assertThat(new String(
                            fixed.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            java.nio.charset.StandardCharsets.UTF_8))
                    .as("seed %d", seed)
                    .isEqualTo(fixed);
        }
    }
}

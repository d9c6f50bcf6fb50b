package dev.clawgate.channel.telegram;

import static dev.clawgate.channel.telegram.TelegramFixture.finalReply;
import static dev.clawgate.channel.telegram.TelegramFixture.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.outbound.LivePreview;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Telegram draft with streamed reasoning (SPEC RP-4 stream, OUT-9), seen in the fake Bot API's calls; time moved by
 * hand.
 */
class LiveDraftTest {
    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private TelegramMessageAdapter adapter;
    private TelegramChat dm;
    private final ManualScheduler clock = new ManualScheduler();

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        dm = tg.privateChat(tg.user(111, "alice"));
        channel = TelegramFixture.channel(tg, dir, true, false, Duration.ofSeconds(1), clock);
        adapter = (TelegramMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        tg.close();
    }

    private void nextInterval() {
        clock.advance(TelegramFixture.PREVIEW_INTERVAL.toMillis());
    }

    @Test
    void streamedReasoningShowsAsAQuoteAboveTheTextAndTheFinalEditReplacesIt() throws Exception {
        // SPEC RP-4 stream: reasoning streamed into the draft preview; SPEC OUT-9 finalEdit replaces the draft
        OutboundTarget t = target(dm, null, null);
        ReplyStream s = adapter.openStream(t);
        s.reasoning("I should add ");
        s.reasoning("1 < 2 and 2.");
        nextInterval();
        JsonNode onlyReasoning = tg.calls("editMessageText").getLast();
        assertThat(onlyReasoning.path("parse_mode").asText()).isEqualTo("HTML");
        assertThat(onlyReasoning.path("text").asText())
                .isEqualTo("<blockquote expandable><i>Reasoning:</i>\nI should add 1 &lt; 2 and 2.</blockquote>");
        s.delta("The sum is 3.");
        nextInterval();
        assertThat(tg.sentTo(dm))
                .singleElement()
                .extracting(SentMessage::text)
                .isEqualTo("Reasoning:\nI should add 1 < 2 and 2.\nThe sum is 3.");
        adapter.send(finalReply(t, "The sum is **3**."), CancelToken.none());
        adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
        SentMessage reply = tg.sentTo(dm).getFirst();
        assertThat(tg.sentTo(dm)).hasSize(1);
        assertThat(reply.text()).isEqualTo("The sum is 3.");
        assertThat(reply.rawText()).doesNotContain("Reasoning", "blockquote");
        assertThat(tg.calls("sendMessage"))
                .singleElement()
                .satisfies(b -> assertThat(b.path("text").asText()).isEqualTo("..."));
    }

    @Test
    void aLongDraftIsCutToTheLimitKeepingTheLatestReasoningAndTheStartOfTheText() {
        // SPEC OUT-1: the draft counts what Telegram counts and stays within the limit
        String reasoning = "old thoughts ".repeat(400) + "the newest thought";
        String text = "Start of the answer. " + "more ".repeat(1000);
        LiveDraft.Rendered r = LiveDraft.render(new LivePreview.Draft(text, reasoning), 4096);
        String visible = r.text()
                .replaceAll("<[^>]+>", "")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
        assertThat(visible.length()).isLessThanOrEqualTo(4096).isGreaterThan(4000);
        assertThat(visible)
                .startsWith("Reasoning:\n…")
                .contains("the newest thought\nStart of the answer.")
                .endsWith("…");
        assertThat(LiveDraft.render(new LivePreview.Draft("x".repeat(5000), ""), 4096)
                        .text())
                .hasSize(4096)
                .endsWith("…");
        assertThat(LiveDraft.render(new LivePreview.Draft(" ", ""), 4096))
                .isEqualTo(new LiveDraft.Rendered("...", null));
        assertThat(LiveDraft.render(new LivePreview.Draft("", "   "), 4096))
                .isEqualTo(new LiveDraft.Rendered("...", null));
    }

    @Test
    void cutsNeverSplitASurrogatePair() {
        // SPEC OUT-1: no cut splits a surrogate pair
        String emoji = "😀".repeat(10);
        assertThat(LiveDraft.head(emoji, 6)).isEqualTo("😀😀…");
        assertThat(LiveDraft.tail(emoji, 6)).isEqualTo("…😀😀");
        assertThat(LiveDraft.head("abc", 3)).isEqualTo("abc");
        assertThat(LiveDraft.head("abcd", 1)).isEqualTo("…");
        assertThat(LiveDraft.head("abcd", 0)).isEmpty();
        assertThat(LiveDraft.tail("abcd", 1)).isEqualTo("…");
        assertThat(LiveDraft.tail("abcd", 4)).isEqualTo("abcd");
    }

    @Test
    void aRefusedDraftIsNotFinalisedAndTheReplyGoesOutNormally() throws Exception {
        // SPEC OUT-9 normalFallback: a draft Telegram refused is never edited; the reply is a message of its own
        tg.failNext("sendMessage", 400, "Bad Request: chat not found", null);
        OutboundTarget t = target(dm, null, null);
        ReplyStream s = adapter.openStream(t);
        s.delta("text");
        nextInterval();
        adapter.send(finalReply(t, "final"), CancelToken.none());
        assertThat(tg.calls("editMessageText")).isEmpty();
        assertThat(tg.sentTo(dm)).singleElement().extracting(SentMessage::text).isEqualTo("final");
        assertThat(clock.live()).isZero();
    }

    @Test
    void aRateLimitedDraftWaitsTheRetryAfterBeforeTheNextCall() {
        // SPEC OUT-9, OUT-7: never sooner than the platform's retry-after
        OutboundTarget t = target(dm, null, null);
        ReplyStream s = adapter.openStream(t);
        tg.failNext("editMessageText", 429, 7);
        s.delta("one");
        nextInterval();
        s.delta(" two");
        clock.advance(6_999);
        assertThat(tg.calls("editMessageText")).hasSize(1);
        clock.advance(1);
        assertThat(tg.calls("editMessageText")).hasSize(2);
        assertThat(tg.sentTo(dm).getFirst().text()).isEqualTo("one two");
        adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
        assertThat(List.of(tg.calls("deleteMessage").size())).containsExactly(1);
    }
}

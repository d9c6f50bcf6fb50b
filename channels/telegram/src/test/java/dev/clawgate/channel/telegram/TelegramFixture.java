package dev.clawgate.channel.telegram;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** A fake Bot API with one user, a DM, a group and a forum, and accounts pointing at it. */
final class TelegramFixture {
    static final String TOKEN = "123456:TEST-token_abc";
    /** The accounts' least time between two preview edits. */
    static final Duration PREVIEW_INTERVAL = Duration.ofMillis(300);

    private TelegramFixture() {}

    static FakeTelegramServer server() {
        return FakeTelegramServer.start(TOKEN, "clawbot");
    }

    static TelegramAccount account(FakeTelegramServer tg, boolean preview, boolean reactions) {
        return account(tg, preview, reactions, dev.clawgate.core.channel.AckPolicy.AFTER_RECEIVE_RECORD);
    }

    static TelegramAccount account(
            FakeTelegramServer tg, boolean preview, boolean reactions, dev.clawgate.core.channel.AckPolicy ack) {
        return new TelegramAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                TOKEN,
                URI.create(tg.apiBase()),
                TelegramAccount.Mode.POLLING,
                null,
                null,
                TelegramSettings.DEFAULT_PATH,
                TelegramAccount.MAX_TEXT,
                preview,
                reactions,
                PREVIEW_INTERVAL,
                ack);
    }

    static TelegramChannel channel(
            FakeTelegramServer tg,
            java.nio.file.Path dir,
            boolean preview,
            boolean reactions,
            Duration callTimeout,
            Duration maxFloodWait) {
        return new TelegramChannel(List.of(account(tg, preview, reactions)), dir, callTimeout, maxFloodWait);
    }

    /**
     * A channel whose previews run on {@code clock} and whose preview and reaction calls run on the caller's thread, so
     * a test sees each platform call as soon as the method that caused it returns.
     */
    static TelegramChannel channel(
            FakeTelegramServer tg,
            java.nio.file.Path dir,
            boolean preview,
            boolean reactions,
            Duration callTimeout,
            Scheduler clock) {
        return new TelegramChannel(
                List.of(account(tg, preview, reactions)), dir, callTimeout, Duration.ZERO, clock, Runnable::run);
    }

    static OutboundTarget target(TelegramChat chat, String thread, Long inReplyTo) {
        return new OutboundTarget(
                "telegram",
                InboundMessage.DEFAULT_ACCOUNT,
                Long.toString(chat.id()),
                thread,
                inReplyTo == null ? null : chat.id() + ":" + inReplyTo);
    }

    static OutboundMessage finalReply(OutboundTarget target, String text) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, 1);
    }

    /**
     * {@code message} as production delivers it: planned (cut to the adapter's chunk limits, SPEC OUT-1) and sent
     * payload by payload, with no outbox row.
     */
    static dev.clawgate.core.internal.outbound.DeliveryOutcome deliver(
            dev.clawgate.core.channel.MessageAdapter adapter,
            OutboundMessage message,
            dev.clawgate.core.run.CancelToken cancel) {
        return new dev.clawgate.core.internal.outbound.DirectDelivery(
                        new dev.clawgate.core.internal.outbound.Payloads(null))
                .deliver(message, adapter, cancel);
    }

    static OutboundMessage withOptions(OutboundTarget target, String text, SendOptions options) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, 1, List.of(), options, 0);
    }
}

package dev.clawgate.channel.discord;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.testkit.discord.DiscordChannel;
import dev.clawgate.testkit.discord.FakeDiscord;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** Bots on a {@link FakeDiscord}, with the Gateway loop timed for tests. */
final class DiscordFixture {
    private DiscordFixture() {}

    static final Duration PREVIEW_INTERVAL = Duration.ofMillis(300);
    /**
     * Reconnects after 50 ms, a READY awaited 3 s, Identify at most every 300 ms (the fake's window is set to 200 ms).
     */
    static final GatewayClient.Timing FAST =
            new GatewayClient.Timing(Duration.ofMillis(50), Duration.ofSeconds(3), Duration.ofMillis(300));

    static FakeDiscord fake() {
        FakeDiscord d = FakeDiscord.start("clawbot");
        d.identifyWindow(Duration.ofMillis(200));
        return d;
    }

    static DiscordAccount account(FakeDiscord discord, boolean preview, boolean reactions, boolean messageContent) {
        return new DiscordAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                discord.botToken(),
                URI.create(discord.apiBase()),
                null,
                messageContent,
                DiscordAccount.MAX_TEXT,
                reactions,
                preview);
    }

    static dev.clawgate.channel.discord.DiscordChannel channel(DiscordAccount account) {
        return channel(account, Scheduler.daemon("discord-test-preview"), Duration.ofSeconds(5));
    }

    /**
     * Calls off the caller's thread run on it; previews timed by {@code clock}; API calls give up after
     * {@code callTimeout}.
     */
    static dev.clawgate.channel.discord.DiscordChannel channel(
            DiscordAccount account, Scheduler clock, Duration callTimeout) {
        return new dev.clawgate.channel.discord.DiscordChannel(
                List.of(account), Runnable::run, Duration.ofSeconds(10), callTimeout, FAST, clock, PREVIEW_INTERVAL);
    }

    /** A channel that keeps its session and nonce log under {@code dataDir}, as the gateway makes it. */
    static dev.clawgate.channel.discord.DiscordChannel channel(DiscordAccount account, java.nio.file.Path dataDir) {
        return new dev.clawgate.channel.discord.DiscordChannel(
                List.of(account),
                Runnable::run,
                Duration.ofSeconds(10),
                Duration.ofSeconds(5),
                FAST,
                Scheduler.daemon("discord-test-preview"),
                PREVIEW_INTERVAL,
                dataDir);
    }

    static OutboundTarget target(DiscordChannel c, String inReplyTo) {
        return new OutboundTarget(
                "discord", InboundMessage.DEFAULT_ACCOUNT, c.id(), c.isThread() ? c.id() : null, inReplyTo);
    }

    static OutboundMessage finalReply(OutboundTarget target, String text) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, 1);
    }

    /** Payload {@code part} of turn {@code turn}: {@code text} with the local file or URL {@code media}. */
    static OutboundMessage withMedia(OutboundTarget target, String text, long turn, int part, String... media) {
        List<dev.clawgate.core.outbound.MediaRef> refs = java.util.Arrays.stream(media)
                .map(m ->
                        new dev.clawgate.core.outbound.MediaRef(dev.clawgate.core.outbound.MediaRef.MediaKind.IMAGE, m))
                .toList();
        return new OutboundMessage(
                target,
                text,
                OutboundMessage.Kind.FINAL,
                turn,
                refs,
                dev.clawgate.core.outbound.SendOptions.DEFAULT,
                part);
    }

    static OutboundMessage finalReply(OutboundTarget target, String text, long turn) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, turn);
    }
}

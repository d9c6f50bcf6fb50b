package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.Login;
import dev.clawgate.testkit.matrix.MatrixRoom;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The bot's account on a {@link FakeMatrixHomeserver}, channels on it, and reading the fake's call log. */
final class MatrixFixture {
    private MatrixFixture() {}

    static final Duration PREVIEW_INTERVAL = Duration.ofMillis(300);
    static final Duration POLL = Duration.ofSeconds(2);
    /** Generous: the build machine is shared; a proof of a lost answer stalls the fake longer than this. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

    static MatrixAccount account(
            FakeMatrixHomeserver hs,
            Login login,
            boolean preview,
            boolean reactions,
            MatrixAccount.AutoJoin join,
            List<String> allowedUsers) {
        return new MatrixAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                URI.create(hs.baseUrl()),
                login.accessToken(),
                hs.bot().userId(),
                join,
                allowedUsers,
                List.of(),
                preview,
                reactions,
                MatrixAccount.DEFAULT_TEXT,
                CALL_TIMEOUT);
    }

    static MatrixAccount account(FakeMatrixHomeserver hs, boolean preview, boolean reactions) {
        return account(hs, hs.botLogin(), preview, reactions, MatrixAccount.AutoJoin.ALWAYS, List.of());
    }

    /** A channel whose reaction, typing and preview calls run on the caller's thread. */
    static MatrixChannel channel(MatrixAccount account, Path dataDir, Scheduler clock) {
        return new MatrixChannel(account, dataDir, Runnable::run, clock, PREVIEW_INTERVAL, POLL);
    }

    static MatrixChannel channel(MatrixAccount account, Path dataDir) {
        return channel(account, dataDir, Scheduler.daemon("matrix-test-preview"));
    }

    static OutboundTarget target(MatrixRoom room, String thread, String inReplyTo) {
        return new OutboundTarget("matrix", InboundMessage.DEFAULT_ACCOUNT, room.roomId(), thread, inReplyTo);
    }

    static OutboundMessage finalReply(OutboundTarget target, String text, long turnId) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, turnId);
    }

    static JsonNode body(PlatformCall call) {
        try {
            return MatrixApi.JSON.readTree(call.body().isEmpty() ? "{}" : call.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    static List<JsonNode> bodies(List<PlatformCall> calls, String endpoint) {
        return calls.stream()
                .filter(c -> c.method().equals(endpoint))
                .map(MatrixFixture::body)
                .toList();
    }

    static List<PlatformCall> of(List<PlatformCall> calls, String endpoint) {
        return calls.stream().filter(c -> c.method().equals(endpoint)).toList();
    }
}

package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.server.config.Deployment;
import dev.clawgate.server.telemetry.Telemetry;
import java.nio.file.Path;
import java.util.List;

/**
 * What to start besides the core: the HTTP server (with the API channel), extra channels, the
 * {@code on_message_sending} (SPEC RP-1) and {@code on_message_received} (IN-7) hooks of an embedding program, the
 * config file (hidden from shell commands, SPEC AG-8; null when there is none) and the web client of {@code web_fetch}
 * and remote images (null: Jetty's, to public addresses only, SPEC AG-4, AG-5).
 */
public record GatewayOptions(
        boolean http,
        List<Channel> channels,
        SendingHook sendingHook,
        InboundHook inboundHook,
        Path configFile,
        PublicWeb web,
        Telemetry telemetry,
        Deployment deployment) {
    public GatewayOptions {
        telemetry = telemetry == null ? Telemetry.OFF : telemetry;
        channels = List.copyOf(channels);
        sendingHook = sendingHook == null ? SendingHook.PASS : sendingHook;
        inboundHook = inboundHook == null ? InboundHook.PASS : inboundHook;
        deployment = deployment == null ? Deployment.local() : deployment;
    }

    public GatewayOptions(boolean http, List<Channel> channels, SendingHook sendingHook, InboundHook inboundHook) {
        this(http, channels, sendingHook, inboundHook, null, null, null, null);
    }

    public GatewayOptions(boolean http, List<Channel> channels, SendingHook sendingHook) {
        this(http, channels, sendingHook, InboundHook.PASS);
    }

    public static GatewayOptions server() {
        return new GatewayOptions(true, List.of(), SendingHook.PASS);
    }

    public static GatewayOptions with(Channel... channels) {
        return new GatewayOptions(false, List.of(channels), SendingHook.PASS);
    }

    public GatewayOptions withSendingHook(SendingHook hook) {
        return new GatewayOptions(http, channels, hook, inboundHook, configFile, web, telemetry, deployment);
    }

    public GatewayOptions withInboundHook(InboundHook hook) {
        return new GatewayOptions(http, channels, sendingHook, hook, configFile, web, telemetry, deployment);
    }

    public GatewayOptions withConfigFile(Path file) {
        return new GatewayOptions(http, channels, sendingHook, inboundHook, file, web, telemetry, deployment);
    }

    public GatewayOptions withWeb(PublicWeb client) {
        return new GatewayOptions(http, channels, sendingHook, inboundHook, configFile, client, telemetry, deployment);
    }

    /** SPEC OP-9: each turn traced by {@code t} (its owner closes it after the gateway). */
    public GatewayOptions withTelemetry(Telemetry t) {
        return new GatewayOptions(http, channels, sendingHook, inboundHook, configFile, web, t, deployment);
    }

    /** {@code [store]} and {@code [cluster]} (SPEC OP-1, OP-2). */
    public GatewayOptions withDeployment(Deployment where) {
        return new GatewayOptions(http, channels, sendingHook, inboundHook, configFile, web, telemetry, where);
    }
}

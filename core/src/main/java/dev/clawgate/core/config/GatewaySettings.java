package dev.clawgate.core.config;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code [gateway]}.
 *
 * @param authToken null when unset; then only a loopback bind may start (SPEC OP-3)
 * @param owner     {@code gateway.owner}: the owner's ids as {@code channel:sender} (SPEC IN-5)
 */
public record GatewaySettings(Path dataDir, String bind, String authToken, List<String> owner) {
    public GatewaySettings {
        owner = owner == null ? List.of() : List.copyOf(owner);
    }

    public GatewaySettings(Path dataDir, String bind, String authToken) {
        this(dataDir, bind, authToken, List.of());
    }

    public static GatewaySettings defaults() {
        return new GatewaySettings(Path.of("data"), "127.0.0.1:8787", null, List.of());
    }

    /** Whether {@code channel:sender} is named in {@code gateway.owner}. */
    public boolean isOwner(String channel, String sender) {
        return owner.contains(channel + ":" + sender);
    }
}

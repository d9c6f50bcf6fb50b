package dev.clawgate.core.config;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code [gateway]}.
 *
 * @param authToken null when unset; then only a loopback bind may start (SPEC OP-3)
 * @param owner {@code gateway.owner}: the owner's ids as {@code channel:sender} (SPEC IN-5)
 * @param bounds the HTTP server's body limit, timeouts and connection cap (SPEC OP-10)
 */
public record GatewaySettings(Path dataDir, String bind, String authToken, List<String> owner, RequestBounds bounds) {
    public GatewaySettings {
        owner = owner == null ? List.of() : List.copyOf(owner);
        bounds = bounds == null ? RequestBounds.defaults() : bounds;
    }

    public GatewaySettings(Path dataDir, String bind, String authToken, List<String> owner) {
        this(dataDir, bind, authToken, owner, RequestBounds.defaults());
    }

    public GatewaySettings(Path dataDir, String bind, String authToken) {
        this(dataDir, bind, authToken, List.of());
    }

    public static GatewaySettings defaults() {
        return new GatewaySettings(Path.of("data"), "127.0.0.1:8787", null, List.of());
    }

    /** The same settings with {@code bounds} replaced. */
    public GatewaySettings withBounds(RequestBounds newBounds) {
        return new GatewaySettings(dataDir, bind, authToken, owner, newBounds);
    }

    /** Whether {@code channel:sender} is named in {@code gateway.owner}. */
    public boolean isOwner(String channel, String sender) {
        return owner.contains(channel + ":" + sender);
    }
}

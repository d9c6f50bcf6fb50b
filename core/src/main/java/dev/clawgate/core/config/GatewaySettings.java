package dev.clawgate.core.config;

import java.nio.file.Path;

/**
 * {@code [gateway]}.
 *
 * @param authToken null when unset; then only a loopback bind may start (SPEC OP-3)
 */
public record GatewaySettings(Path dataDir, String bind, String authToken) {
    public static GatewaySettings defaults() {
        return new GatewaySettings(Path.of("data"), "127.0.0.1:8787", null);
    }
}

package dev.clawgate.server.config;

import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.RequestBounds;
import java.time.Duration;
import java.util.List;

/** {@code [gateway]}: where it listens, its token, its owner and its request bounds (SPEC OP-6, OP-10, IN-5). */
final class GatewaySection {
    private GatewaySection() {}

    static GatewaySettings read(TableReader t) {
        GatewaySettings d = GatewaySettings.defaults();
        String bind = t.string("bind");
        if (bind == null) {
            bind = d.bind();
        } else {
            BindAddress.check(bind, t.keyPath("bind"), t.file());
        }
        String token = t.string("auth_token");
        if (token != null && token.isBlank())
            throw t.error(t.keyPath("auth_token"), "is empty; set a token or remove the key");
        return new GatewaySettings(t.directory("data_dir", d.dataDir()), bind, token, owner(t), bounds(t));
    }

    /** SPEC OP-10: the HTTP server's body limit, connection cap and timeouts. */
    private static RequestBounds bounds(TableReader t) {
        RequestBounds d = RequestBounds.defaults();
        Duration least = Duration.ofMillis(100);
        return new RequestBounds(
                t.longInteger("max_body_bytes", d.maxBodyBytes(), 1024, Integer.MAX_VALUE),
                t.integer("max_connections", d.maxConnections(), 1, 1_000_000),
                t.duration("read_timeout", d.readTimeout(), least),
                t.duration("write_timeout", d.writeTimeout(), least));
    }

    /** SPEC IN-5: {@code channel:sender}, split at the first colon (a sender id may hold more). */
    private static List<String> owner(TableReader t) {
        List<String> owner = t.strings("owner", List.of());
        for (int i = 0; i < owner.size(); i++) {
            String id = owner.get(i);
            int colon = id.indexOf(':');
            String sender = colon < 0 ? "" : id.substring(colon + 1);
            if (colon < 0
                    || !ConfigSchema.isPlainName(id.substring(0, colon))
                    || sender.isBlank()
                    || !sender.equals(sender.strip())) {
                throw t.error(
                        t.keyPath("owner") + "[" + i + "]", "must be channel:sender, e.g. \"telegram:123456789\"");
            }
        }
        return owner;
    }
}

package dev.clawgate.server.control;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.util.Optional;

/** Pairing requests to approve or reject: {@code /api/pairing} (SPEC IN-5), as {@code clawgate pairing} does. */
final class PairingView {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Store store;
    private final Clock clock;

    PairingView(Store store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Pending requests; with {@code all}, every pairing also decided or expired. */
    ObjectNode list(boolean all) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode out = body.putArray("pairings");
        for (Pairing p : store.pairing().list(all)) out.add(json(p));
        return body;
    }

    ObjectNode approve(String code) {
        return decided(store.pairing().approve(code, clock.instant()), code);
    }

    ObjectNode reject(String code) {
        return decided(store.pairing().reject(code), code);
    }

    private static ObjectNode decided(Optional<Pairing> p, String code) {
        return json(p.orElseThrow(() -> ControlException.notFound(
                "no pending pairing code " + Pairing.normaliseCode(code) + " (expired, decided, or never issued)")));
    }

    private static ObjectNode json(Pairing p) {
        return JSON.createObjectNode()
                .put("code", p.code())
                .put("channel", p.channel())
                .put("account", p.account())
                .put("sender", p.sender())
                .put("status", p.status().wireName())
                .put("created_at", p.createdAt().toString())
                .put("expires_at", p.expiresAt().toString());
    }
}

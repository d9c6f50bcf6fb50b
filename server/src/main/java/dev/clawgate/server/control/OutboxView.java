package dev.clawgate.server.control;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * The outbox by state for {@code /api/outbox} and an operator's resend (SPEC OUT-7, OUT-8): every entry that failed or
 * whose outcome is unknown carries a reason, the stored detail or, when none was stored, what its state means.
 */
final class OutboxView {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What an operator should look at by default, as {@code clawgate outbox} shows it. */
    static final EnumSet<OutboxState> ATTENTION = EnumSet.of(
            OutboxState.UNKNOWN_AFTER_SEND,
            OutboxState.FAILED,
            OutboxState.PARTIAL_FAILED,
            OutboxState.EXPIRED,
            OutboxState.POSSIBLY_DUPLICATED,
            OutboxState.PENDING);

    private static final EnumSet<OutboxState> RESENDABLE = EnumSet.of(
            OutboxState.FAILED, OutboxState.PARTIAL_FAILED, OutboxState.EXPIRED, OutboxState.UNKNOWN_AFTER_SEND);
    private static final int MAX_ENTRIES = 500;
    private static final int TEXT_PREVIEW = 300;

    private final Store store;
    private final Clock clock;

    OutboxView(Store store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Counts of every state and the entries of {@code states} (comma-separated wire names; blank: attention). */
    ObjectNode list(String states) {
        EnumSet<OutboxState> wanted = parse(states);
        ObjectNode body = JSON.createObjectNode();
        ObjectNode counts = body.putObject("counts");
        for (Map.Entry<OutboxState, Long> c : store.outbox().counts().entrySet())
            counts.put(c.getKey().wireName(), c.getValue());
        ArrayNode states0 = body.putArray("states");
        wanted.forEach(s -> states0.add(s.wireName()));
        List<OutboxEntry> entries = store.outbox().byState(wanted.toArray(OutboxState[]::new));
        ArrayNode out = body.putArray("entries");
        // newest first, at most MAX_ENTRIES: the page shows what happened lately
        for (int i = entries.size() - 1; i >= 0 && out.size() < MAX_ENTRIES; i--) out.add(entry(entries.get(i)));
        body.put("truncated", entries.size() > MAX_ENTRIES);
        return body;
    }

    /** Sends a failed, expired, partly failed or unknown entry again; the running outbox worker picks it up. */
    ObjectNode resend(String rawId) {
        long id = id(rawId);
        if (store.outbox().entry(id).isEmpty()) throw ControlException.notFound("there is no outbox entry " + id);
        try {
            return entry(new Outbox(store, clock).resend(id));
        } catch (IllegalArgumentException e) {
            throw new ControlException(409, e.getMessage());
        }
    }

    static ObjectNode entry(OutboxEntry e) {
        ObjectNode n = JSON.createObjectNode()
                .put("id", e.id())
                .put("state", e.state().wireName())
                .put("turn_id", e.turnId())
                .put("channel", e.draft().channel())
                .put("account", e.draft().account())
                .put("to", e.draft().replyTarget())
                .put("thread_id", e.draft().threadId())
                .put("kind", e.draft().kind().name().toLowerCase(java.util.Locale.ROOT))
                .put("attempts", e.attempts())
                .put("created_at", e.createdAt().toString())
                .put("updated_at", e.updatedAt().toString())
                .put("next_attempt_at", e.nextAttemptAt().toString())
                .put("detail", e.detail())
                .put("reason", reason(e))
                .put("resendable", RESENDABLE.contains(e.state()))
                .put("text", preview(e.draft().text()));
        ArrayNode receipts = n.putArray("receipts");
        for (MessageReceipt r : e.receipts()) {
            receipts.addObject()
                    .put("primary_id", r.primaryId())
                    .put("platform_ids", String.join(",", r.platformIds()))
                    .put("parts", r.parts().size())
                    .put("sent_at", r.sentAt() == null ? null : r.sentAt().toString());
        }
        return n;
    }

    /** Why the entry is where it is: its stored detail, else what the state means; null for a plain success. */
    static String reason(OutboxEntry e) {
        if (e.detail() != null && !e.detail().isBlank()) return e.detail();
        return switch (e.state()) {
            case FAILED -> "the platform refused the send permanently (no detail was stored)";
            case PARTIAL_FAILED -> "some parts were delivered, a later part failed (no detail was stored)";
            case EXPIRED -> "not delivered within outbox.max_age; never sent again without a resend";
            case UNKNOWN_AFTER_SEND ->
                "the gateway stopped or the send failed ambiguously: it may or may not have arrived; resending may "
                        + "deliver it twice";
            case POSSIBLY_DUPLICATED -> "an unknown send was resent on request: it may have arrived twice";
            case SUPPRESSED -> "a hook or a rule suppressed the reply";
            case PENDING, SENDING, SENT -> null;
        };
    }

    private static String preview(String text) {
        return text.length() <= TEXT_PREVIEW ? text : text.substring(0, TEXT_PREVIEW) + "…";
    }

    private static long id(String raw) {
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw ControlException.badRequest("an outbox entry id is a number, got '" + raw + "'");
        }
    }

    private static EnumSet<OutboxState> parse(String states) {
        if (states == null || states.isBlank()) return EnumSet.copyOf(ATTENTION);
        if (states.strip().equals("all")) return EnumSet.allOf(OutboxState.class);
        EnumSet<OutboxState> wanted = EnumSet.noneOf(OutboxState.class);
        for (String s : states.split(",")) {
            try {
                wanted.add(OutboxState.fromWire(s.strip()));
            } catch (IllegalArgumentException e) {
                throw ControlException.badRequest("unknown outbox state '" + s.strip() + "'; use all or any of "
                        + EnumSet.allOf(OutboxState.class).stream()
                                .map(OutboxState::wireName)
                                .toList());
            }
        }
        return wanted;
    }
}

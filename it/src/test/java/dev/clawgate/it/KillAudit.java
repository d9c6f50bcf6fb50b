package dev.clawgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the kill tests read after a run, the same for every channel (SPEC OUT-7, OUT-12, IN-1): each user message
 * carries a tag {@code msg-<user>-<n>} that the scripted model echoes in its reply, so a reply, an entry left
 * {@code unknown_after_send} and a failed inbox record all name the message they belong to.
 */
final class KillAudit {
    /** The tag a kill test's user message carries and its reply repeats. */
    static final Pattern TAG = Pattern.compile("msg-(\\d+)-(\\d+)");

    private KillAudit() {}

    /** The outbox entries left unknown after a send, the inbox records that failed (by tag), and the outbox counts. */
    record Audit(List<String> unknown, List<String> failed, Map<OutboxState, Long> outboxCounts) {}

    /** The last tag in {@code text}, or "" when it has none. */
    static String tagOf(String text) {
        Matcher t = TAG.matcher(text);
        String last = "";
        while (t.find()) last = t.group();
        return last;
    }

    /** The text of the last user message in a model request (Chat Completions' {@code messages}). */
    static String lastUser(JsonNode body) {
        JsonNode msgs = body.path("messages");
        for (int i = msgs.size() - 1; i >= 0; i--) {
            if (msgs.get(i).path("role").asText().equals("user"))
                return msgs.get(i).path("content").asText();
        }
        return "";
    }

    /** Every message recorded reached a final state and no reply is still waiting to be sent. */
    static boolean settled(Path dir, int total) {
        Path db = dir.resolve("data");
        if (!Files.isDirectory(db)) return false;
        try (Store store = Stores.open(null, db)) {
            Map<InboxState, Long> inbox = store.inbox().counts();
            long finals = inbox.entrySet().stream()
                    .filter(e -> e.getKey().isFinal())
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            Map<OutboxState, Long> outbox = store.outbox().counts();
            return finals >= total && outbox.get(OutboxState.PENDING) == 0 && outbox.get(OutboxState.SENDING) == 0;
        }
    }

    static Audit audit(Path dir) {
        try (Store store = Stores.open(null, dir.resolve("data"))) {
            List<String> unknown = new ArrayList<>();
            for (OutboxEntry e : store.outbox().byState(OutboxState.UNKNOWN_AFTER_SEND)) {
                String tag = tagOf(e.draft().text());
                if (!tag.isEmpty()) unknown.add(tag);
            }
            List<String> failed = new ArrayList<>();
            for (InboxRecord r : InboxAudit.read(store).records()) {
                if (r.state() != InboxState.FAILED) continue;
                Matcher t = TAG.matcher(r.message().text());
                if (t.find()) failed.add(t.group());
            }
            return new Audit(unknown, failed, new LinkedHashMap<>(store.outbox().counts()));
        }
    }
}

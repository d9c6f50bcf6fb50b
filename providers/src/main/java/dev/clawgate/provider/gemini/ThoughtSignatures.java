package dev.clawgate.provider.gemini;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the gateway must hand back with a function call it replays to Gemini but cannot keep in a
 * {@link dev.clawgate.core.model.ToolCall}: whether the API gave the call's id (else the id is ours and is not sent)
 * and the call's {@code thoughtSignature} (thinking models refuse a replayed call without it). Bounded: the oldest
 * calls are forgotten, by which time their run is over.
 */
final class ThoughtSignatures {
    static final int CAPACITY = 4096;

    /** @param signature null when the part carried none */
    record Origin(boolean idFromApi, String signature) {}

    private final Map<String, Origin> byCallId = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Origin> eldest) {
            return size() > CAPACITY;
        }
    });

    void remember(String callId, boolean idFromApi, String signature) {
        byCallId.put(callId, new Origin(idFromApi, signature));
    }

    /** What is known of a call, or null for one this provider did not make (another provider's, or forgotten). */
    Origin of(String callId) {
        return byCallId.get(callId);
    }
}

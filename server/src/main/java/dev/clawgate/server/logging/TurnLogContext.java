package dev.clawgate.server.logging;

import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import java.util.stream.Collectors;
import org.slf4j.MDC;

/**
 * Puts a turn's session key, inbox id(s) and turn id in the SLF4J MDC while the turn runs on its thread, so every line
 * it logs carries them (the JSON log format writes them as fields; SPEC OP-5). The turn id is the id of the run's inbox
 * record (SPEC OUT-12); a run that took several queued messages lists their ids in {@code inbox_id}.
 */
public final class TurnLogContext {
    public static final String SESSION_KEY = "session_key";
    public static final String INBOX_ID = "inbox_id";
    public static final String TURN_ID = "turn_id";

    private TurnLogContext() {}

    public static TurnRunner around(TurnRunner runner) {
        return handle -> {
            put(handle);
            try {
                runner.run(handle);
            } finally {
                MDC.remove(SESSION_KEY);
                MDC.remove(INBOX_ID);
                MDC.remove(TURN_ID);
            }
        };
    }

    private static void put(RunHandle handle) {
        InboxRecord record = handle.record();
        MDC.put(SESSION_KEY, record.session().display());
        MDC.put(TURN_ID, Long.toString(record.id()));
        MDC.put(
                INBOX_ID,
                handle.records().stream().map(r -> Long.toString(r.id())).collect(Collectors.joining(",")));
    }
}

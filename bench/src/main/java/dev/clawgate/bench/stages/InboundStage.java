package dev.clawgate.bench.stages;

import dev.clawgate.bench.BenchChannel;
import dev.clawgate.core.internal.inbound.BenchDedupeKeys;
import dev.clawgate.core.internal.run.InboundChecks;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import java.time.Duration;
import java.util.Optional;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The inbox's record of one message (SPEC IN-4, IN-1) on a store that already holds {@link #seeded} records over
 * {@link #SESSIONS} conversations. Growth is bounded: the seeded database is restored before every iteration, so an
 * iteration's own records (one inbox row and one dedupe key per operation) are gone before the next. The restore
 * allocates about 40 KB, which {@code -prof gc} counts into the iteration: well under 50 bytes per operation.
 */
@State(Scope.Benchmark)
public class InboundStage {
    /** The gateway's dedupe window for platform message ids ({@code server.Gateway}). */
    static final Duration DEDUPE_TTL = Duration.ofMinutes(20);
    /** The records are spread over this many direct chats, as a busy gateway's are. */
    static final int SESSIONS = 64;
    /** A user message of the usual length: it is stored as the record's JSON payload. */
    static final String TEXT = "Can you remind me what we decided about the quarterly report and who sends it out?";

    /** Records in the inbox before each iteration: a gateway that has run for a while. */
    @Param("10000")
    public int seeded;

    public TempStore db;
    private long next;

    @Setup(Level.Trial)
    public void seed() {
        db = TempStore.open("inbound");
        for (int i = 0; i < seeded; i++) {
            if (record(message("seed-" + i, i)).isEmpty()) throw new IllegalStateException("seed " + i + " deduped");
        }
        db.snapshot();
    }

    @Setup(Level.Iteration)
    public void restore() {
        db.restore();
    }

    @TearDown(Level.Trial)
    public void close() {
        db.close();
    }

    /** The next message as a channel hands it over: a fresh platform id, so it is never a duplicate. */
    public InboundMessage nextMessage() {
        long n = next++;
        return message("m-" + n, n);
    }

    /**
     * What {@code Inbox.accept} does before the dispatcher's bus: the length check, unpaired surrogates made well
     * formed, the session key, the dedupe key, and the record with its key in one commit.
     */
    public Optional<InboxRecord> record(InboundMessage received) {
        if (InboundChecks.tooLong(received.text(), InboundChecks.MAX_TEXT_CHARS).isPresent())
            throw new IllegalStateException("the sample message is refused as too long");
        InboundMessage message = InboundChecks.wellFormed(received);
        SessionKey session = SessionKey.of(message);
        return db.store().inbox().record(message, session, BenchDedupeKeys.of(message, session), DEDUPE_TTL);
    }

    private static InboundMessage message(String id, long n) {
        return InboundMessage.direct(BenchChannel.NAME, id, "user-" + n % SESSIONS, TEXT);
    }
}

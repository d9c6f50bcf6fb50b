package dev.clawgate.core.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.InspectorSettings;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.InMemoryTurnBook;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The turn inspector's recording (SPEC OP-8): in memory during the turn, one write at its end, off when disabled. */
class TurnInspectorTest {
    private static final SessionKey ALICE = new SessionKey("chan", "default", ChatType.DIRECT, "c1", null, "alice");
    private final InMemoryTurnBook book = new InMemoryTurnBook();
    private final AtomicReference<InspectorSettings> settings = new AtomicReference<>(InspectorSettings.defaults());
    private final TurnInspector inspector = new TurnInspector(book, settings::get, Clock.systemUTC());

    private static InboxRecord record(long id, String messageId, String text) {
        InboundMessage m = new InboundMessage(
                messageId,
                "chan",
                "default",
                "alice",
                "Alice",
                "c1",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                text,
                List.of(),
                "{}");
        return new InboxRecord(id, m, ALICE, InboxState.DISPATCHED, 1, Instant.now());
    }

    @Test
    void aTurnIsWrittenOnceAtItsEndWithItsPhasesInOrder() {
        // SPEC OP-8: collected on the turn's thread, written when it ends
        TurnInspector.Recording r = inspector.begin(List.of(record(7, "m7", "hi\nthere")), "steer", 0);
        assertThat(TurnTrail.current()).isSameAs(r.trail());
        long at = TurnTrail.current().now();
        TurnTrail.current()
                .span(
                        "model",
                        at,
                        () -> Detail.of().put("error", "a \"quoted\"\nline").put("ok", false));
        assertThat(book.list(null, null, 10))
                .as("nothing written before the end")
                .isEmpty();

        inspector.end(r, "replied");

        assertThat(TurnTrail.current()).isSameAs(TurnTrail.OFF);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> book.list(null, null, 10).size() == 1);
        TurnTrace t = book.find(book.list(null, null, 10).getFirst().id()).orElseThrow();
        assertThat(t.summary().inboxId()).isEqualTo(7);
        assertThat(t.summary().preview()).isEqualTo("hi there");
        assertThat(t.phases())
                .extracting(TurnPhase::name)
                .containsExactly("inbound", "dedupe", "queue", "session", "model", "end");
        // stored at microsecond precision: names and details round-trip exactly
        assertThat(PhaseJson.read(PhaseJson.write(t.phases())))
                .extracting(TurnPhase::name, TurnPhase::detail)
                .isEqualTo(t.phases().stream()
                        .map(p -> org.assertj.core.groups.Tuple.tuple(p.name(), p.detail()))
                        .toList());
        assertThat(t.phases().get(4).detail()).isEqualTo("{\"error\":\"a \\\"quoted\\\"\\nline\",\"ok\":false}");
    }

    @Test
    void aDuplicateNamesTheRecordItRepeatsAndNothingIsRecordedWhenOff() {
        // SPEC OP-8, IN-1: the dedupe decision of a second delivery; inspector.enabled = false records nothing
        InboxRecord first = record(3, "m3", "hello");
        inspector.recorded("key-3", 3);
        inspector.duplicate(first.message(), ALICE, "key-3");
        await().atMost(Duration.ofSeconds(5)).until(() -> book.findByInbox(3).size() == 1);
        TurnTrace dup = book.find(book.findByInbox(3).getFirst().id()).orElseThrow();
        assertThat(dup.summary().outcome()).isEqualTo(TurnSummary.DUPLICATE);
        assertThat(dup.phases().get(1).detail()).contains("\"decision\":\"duplicate: dropped before any run\"");

        settings.set(new InspectorSettings(false, Duration.ofDays(7), false));
        TurnInspector.Recording off = inspector.begin(List.of(record(4, "m4", "x")), "steer", 0);
        assertThat(off.trail().active()).isFalse();
        TurnTrail.current().mark("model", () -> {
            throw new AssertionError("a detail is never built for an unrecorded turn");
        });
        inspector.end(off, "replied");
        inspector.duplicate(first.message(), ALICE, "key-3");
        assertThat(book.list(null, null, 10)).hasSize(1);
    }
}

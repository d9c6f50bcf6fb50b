package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.inspect.TurnPhase;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The turn inspector half of the Store contract (SPEC OP-8); runs on every dialect. */
abstract class TurnContract extends StoreTestBase {

    static final SessionKey GROUP = new SessionKey("telegram", "ops", ChatType.GROUP, "-100", "7", null);

    TurnTrace trace(long inboxId, SessionKey session, String outcome, String prompt) {
        List<TurnPhase> phases = List.of(
                new TurnPhase("inbound", Duration.ZERO, Duration.ZERO, "{\"id\":\"m1\",\"chars\":5}"),
                new TurnPhase("dedupe", Duration.ofNanos(3_000), Duration.ZERO, "{\"decision\":\"new\"}"),
                new TurnPhase(
                        "model",
                        Duration.ofMillis(2),
                        Duration.ofNanos(41_250_000),
                        "{\"provider\":\"openai\",\"model\":\"gpt\",\"tokens\":[12,3],"
                                + "\"note\":\"a \\\"quoted\\\" é\"}"),
                new TurnPhase("send", Duration.ofMillis(44), Duration.ofMillis(5), null));
        TurnSummary summary = new TurnSummary(
                0, inboxId, session, clock.instant(), Duration.ofNanos(49_000_000), outcome, "hello there");
        return new TurnTrace(summary, phases, prompt);
    }

    @Test
    void aRecordedTurnReadsBackWithItsPhasesInOrder() {
        // SPEC OP-8: every turn phase by phase, names, offsets, durations and details as recorded
        Store store = open();
        TurnTrace written = trace(17, ALICE, TurnSummary.REPLIED, null);

        long id = store.turns().record(written);

        TurnTrace read = store.turns().find(id).orElseThrow();
        assertThat(read.summary()).isEqualTo(written.summary().withId(id));
        assertThat(read.summary().channel()).isEqualTo("telegram");
        assertThat(read.summary().account()).isEqualTo("default");
        assertThat(read.phases()).extracting(TurnPhase::name).containsExactly("inbound", "dedupe", "model", "send");
        assertThat(read.phases().get(2).start()).isEqualTo(Duration.ofMillis(2));
        assertThat(read.phases().get(2).duration()).isEqualTo(Duration.ofNanos(41_250_000));
        assertThat(read.phases().get(2).detail())
                .isEqualTo("{\"provider\":\"openai\",\"model\":\"gpt\",\"tokens\":[12,3],"
                        + "\"note\":\"a \\\"quoted\\\" é\"}");
        assertThat(read.phases().get(3).detail()).isEqualTo("{}");
        assertThat(read.prompt()).isNull();
        assertThat(rows("SELECT COUNT(*) FROM turns")).containsExactly(List.of(1L));
    }

    @Test
    void thePromptIsKeptOnlyWhenGivenAndAGroupSessionKeepsItsThread() {
        // SPEC OP-8: the full prompt text only with inspector.keep_prompts
        Store store = open();
        long id = store.turns().record(trace(3, GROUP, TurnSummary.FAILED, "system: be brief\nuser: hi"));

        TurnTrace read = store.turns().find(id).orElseThrow();
        assertThat(read.prompt()).isEqualTo("system: be brief\nuser: hi");
        assertThat(read.summary().session()).isEqualTo(GROUP);
        assertThat(read.summary().outcome()).isEqualTo("failed");
    }

    @Test
    void theListIsNewestFirstAndFiltersBySessionAndStart() {
        // SPEC OP-8: clawgate turns list [--session S] [--since T]
        Store store = open();
        long first = store.turns().record(trace(1, ALICE, TurnSummary.REPLIED, null));
        clock.advance(Duration.ofMinutes(1));
        Instant second = clock.instant();
        long bob = store.turns().record(trace(2, BOB, TurnSummary.REPLIED, null));
        clock.advance(Duration.ofMinutes(1));
        long third = store.turns().record(trace(3, ALICE, TurnSummary.NO_REPLY, null));

        assertThat(store.turns().list(null, null, 10))
                .extracting(TurnSummary::id)
                .containsExactly(third, bob, first);
        assertThat(store.turns().list(ALICE.display(), null, 10))
                .extracting(TurnSummary::id)
                .containsExactly(third, first);
        assertThat(store.turns().list(null, second, 10))
                .extracting(TurnSummary::id)
                .containsExactly(third, bob);
        assertThat(store.turns().list(ALICE.display(), second, 10))
                .extracting(TurnSummary::id)
                .containsExactly(third);
        assertThat(store.turns().list(null, null, 1))
                .extracting(TurnSummary::id)
                .containsExactly(third);
        assertThat(store.turns().list(null, null, 0)).hasSize(1);
        assertThat(store.turns().list("telegram_nobody", null, 10)).isEmpty();
    }

    @Test
    void theTurnsOfOneInboxRecordIncludeADroppedDuplicate() {
        // SPEC OP-8, IN-1: why did it answer twice? the duplicate's dedupe decision is found from the message
        Store store = open();
        long run = store.turns().record(trace(9, ALICE, TurnSummary.REPLIED, null));
        clock.advance(Duration.ofSeconds(5));
        long duplicate = store.turns().record(trace(9, ALICE, TurnSummary.DUPLICATE, null));
        store.turns().record(trace(10, ALICE, TurnSummary.REPLIED, null));

        assertThat(store.turns().findByInbox(9))
                .extracting(TurnSummary::id, TurnSummary::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(run, "replied"),
                        org.assertj.core.groups.Tuple.tuple(duplicate, "duplicate"));
        assertThat(store.turns().findByInbox(11)).isEmpty();
        assertThat(store.turns().find(duplicate + 100)).isEmpty();
    }

    @Test
    void pruningDeletesOnlyTurnsStartedBeforeTheCutAndIdsAreNotReused() {
        // SPEC OP-8: kept for inspector.retention, then pruned
        Store store = open();
        long old = store.turns().record(trace(1, ALICE, TurnSummary.REPLIED, null));
        clock.advance(Duration.ofDays(8));
        long recent = store.turns().record(trace(2, ALICE, TurnSummary.REPLIED, null));

        assertThat(store.turns().prune(clock.instant().minus(Duration.ofDays(7))))
                .isEqualTo(1);
        assertThat(store.turns().find(old)).isEmpty();
        assertThat(store.turns().find(recent)).isPresent();
        assertThat(store.turns().prune(clock.instant().minus(Duration.ofDays(7))))
                .isZero();
        assertThat(store.turns().record(trace(3, ALICE, TurnSummary.REPLIED, null)))
                .isGreaterThan(recent);
    }
}

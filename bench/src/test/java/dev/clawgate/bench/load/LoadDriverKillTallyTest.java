package dev.clawgate.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The kill test's verdict and schedule without a gateway: what passes, what fails, and that a seed replays. */
class LoadDriverKillTallyTest {
    private static final KillSchedule ONE_KILL = new KillSchedule(7, List.of(2), List.of(0L));

    /** Messages 1..4 sent; replies as given per message. */
    private static ReplyLedger ledger(int... repliesPerMessage) {
        ReplyLedger l = new ReplyLedger(1, repliesPerMessage.length);
        for (int i = 0; i < repliesPerMessage.length; i++) {
            l.sent(1 + i, 10 + i);
            for (int r = 0; r < repliesPerMessage[i]; r++) l.replied(1 + i, 100 + i);
        }
        return l;
    }

    private static GatewayAudit.Entry reply(long inboxId, String outboxState) {
        return new GatewayAudit.Entry(inboxId, "done", outboxState, null, 1);
    }

    private static KillTally tally(ReplyLedger l, Map<Long, GatewayAudit.Entry> store) {
        return KillTally.of(ONE_KILL, List.of(1500.0), l, l.outcome(), store);
    }

    @Test
    void aMessageWithoutAReplyPassesOnlyWhenTheStoreListsItUnknownAfterSend() {
        // SPEC OUT-7: a reply the kill cut off is unknown_after_send, for the operator, not lost in silence
        ReplyLedger l = ledger(1, 0, 1, 1);
        Map<Long, GatewayAudit.Entry> listed = Map.of(
                1L,
                reply(1, "sent"),
                2L,
                reply(2, "unknown_after_send"),
                3L,
                reply(3, "unknown_after_send"),
                4L,
                reply(4, "sent"));

        KillTally k = tally(l, listed);

        assertThat(k.passed()).isTrue();
        assertThat(k.answeredOnce()).isEqualTo(3);
        assertThat(k.answeredOnceListedUnknown()).isEqualTo(1);
        assertThat(k.listedUnknown()).isEqualTo(1);
        assertThat(k.unlisted()).isEmpty();
    }

    @Test
    void aMessageWithoutAReplyThatTheStoreCallsSentOrNeverSawFailsTheRun() {
        // SPEC OUT-7, IN-4: a reply recorded sent that never arrived, or an update the inbox never got, is a loss
        ReplyLedger l = ledger(0, 0, 1, 1);
        Map<Long, GatewayAudit.Entry> store = Map.of(1L, reply(1, "sent"), 3L, reply(3, "sent"), 4L, reply(4, "sent"));

        KillTally k = tally(l, store);

        assertThat(k.passed()).isFalse();
        assertThat(k.unlisted()).containsExactly(1L, 2L);
        assertThat(k.notes()).anySatisfy(n -> assertThat(n).startsWith("#2 no reply: not in the gateway's inbox"));
    }

    @Test
    void aMessageAnsweredTwiceFailsTheRunEvenWhenTheStoreListsIt() {
        // SPEC OUT-12: never two final replies for one message
        ReplyLedger l = ledger(1, 2, 1, 1);
        Map<Long, GatewayAudit.Entry> store = Map.of(
                1L, reply(1, "sent"), 2L, reply(2, "possibly_duplicated"), 3L, reply(3, "sent"), 4L, reply(4, "sent"));

        KillTally k = tally(l, store);

        assertThat(k.passed()).isFalse();
        assertThat(k.duplicated()).containsExactly(2L);
    }

    @Test
    void aKillTestThatKilledFewerTimesThanPlannedFails() {
        // a kill test that did not kill proves nothing about OUT-12
        ReplyLedger l = ledger(1, 1, 1, 1);
        Map<Long, GatewayAudit.Entry> store =
                Map.of(1L, reply(1, "sent"), 2L, reply(2, "sent"), 3L, reply(3, "sent"), 4L, reply(4, "sent"));

        assertThat(KillTally.of(ONE_KILL, List.of(), l, l.outcome(), store).passed())
                .isFalse();
    }

    @Test
    void killSchedulesAreIncreasingInsideTheRunAndReplayFromTheirSeed() {
        long seed = new Random().nextLong();
        Random sizes = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            int kills = 1 + sizes.nextInt(10);
            int messages = 4 * (kills + 1) + sizes.nextInt(5000);
            KillSchedule s = KillSchedule.draw(kills, messages, sizes.nextLong());
            String replay = "seed " + seed + ", " + kills + " kills in " + messages + " messages: " + s.atReplies();

            assertThat(s.atReplies())
                    .as(replay)
                    .hasSize(kills)
                    .isSorted()
                    .doesNotHaveDuplicates()
                    .allSatisfy(at -> assertThat(at).isBetween(1, messages - 1));
            assertThat(s.delayMicros()).as(replay).allSatisfy(d -> assertThat(d).isBetween(0L, 20_000L));
            assertThat(KillSchedule.draw(kills, messages, s.seed())).as(replay).isEqualTo(s);
        }
    }
}

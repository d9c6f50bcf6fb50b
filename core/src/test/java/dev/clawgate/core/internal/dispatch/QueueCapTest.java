package dev.clawgate.core.internal.dispatch;

import static dev.clawgate.core.internal.dispatch.LaneRecords.busyWith;
import static dev.clawgate.core.internal.dispatch.LaneRecords.texts;
import static dev.clawgate.core.internal.dispatch.LaneRecords.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.internal.dispatch.QueueCap.Overflow;
import dev.clawgate.core.store.InboxRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cap on a busy session's waiting messages and what each drop policy gives up (SPEC DI-3). */
class QueueCapTest {
    private final LaneRecords records = new LaneRecords();
    private final SessionLane lane = busyWith(records.from("alice", "running"));

    private static QueuePolicy policy(int cap, DropPolicy drop) {
        return new QueuePolicy(QueueMode.FOLLOWUP, Duration.ZERO, cap, drop);
    }

    /** Queues one message a run, as followup does, and returns the last. */
    private InboxRecord queue(String... texts) {
        InboxRecord last = null;
        for (String t : texts) {
            last = records.from("alice", t);
            lane.queue.add(Pending.of(last, false));
        }
        return last;
    }

    @Test
    void aQueueAtItsCapLosesNothing() {
        // SPEC DI-3: the cap is how many may wait; reaching it is not over it
        InboxRecord newest = queue("m1", "m2", "m3");

        Overflow overflow = QueueCap.enforce(lane, policy(3, DropPolicy.NEW), newest);

        assertThat(overflow).isSameAs(Overflow.NONE);
        assertThat(overflow.drops()).isEmpty();
        assertThat(overflow.newestRefused()).isFalse();
        assertThat(waiting(lane)).hasSize(3);
    }

    @Test
    void dropOldGivesUpTheOldestWaitingMessagesUntilTheQueueFits() {
        // SPEC DI-3 drop=old
        InboxRecord newest = queue("m1", "m2", "m3", "m4");

        Overflow overflow = QueueCap.enforce(lane, policy(2, DropPolicy.OLD), newest);

        assertThat(overflow.newestRefused()).isFalse();
        assertThat(texts(overflow.records())).containsExactly("m1", "m2");
        assertThat(overflow.drops())
                .extracting(QueueCap.Drop::reason)
                .containsExactly("queue full (cap 2): alice: m1", "queue full (cap 2): alice: m2");
        assertThat(waiting(lane)).containsExactly(List.of("m3"), List.of("m4"));
        assertThat(lane.dropped).as("old keeps no summary").isEmpty();
    }

    @Test
    void dropOldTakesSingleMessagesOutOfABatchNotTheWholeBatch() {
        // SPEC DI-3: the cap counts messages
        InboxRecord a = records.from("alice", "a");
        InboxRecord b = records.from("alice", "b");
        lane.queue.add(new Pending(ScopeKey.of(a.message()), null, false, List.of(a, b)));

        Overflow overflow = QueueCap.enforce(lane, policy(1, DropPolicy.OLD), b);

        assertThat(overflow.records()).containsExactly(a);
        assertThat(waiting(lane)).containsExactly(List.of("b"));
    }

    @Test
    void dropSummarizeKeepsALineAboutEachDroppedMessageForTheNextRunUpToTheCap() {
        // SPEC DI-3 drop=summarize: the next run is told what was dropped; the summaries are bounded like the queue
        InboxRecord newest = queue("m1", "m2", "m3", "m4", "m5");

        Overflow overflow = QueueCap.enforce(lane, policy(2, DropPolicy.SUMMARIZE), newest);

        assertThat(texts(overflow.records())).containsExactly("m1", "m2", "m3");
        assertThat(lane.dropped).containsExactly("alice: m1", "alice: m2");
        assertThat(waiting(lane)).containsExactly(List.of("m4"), List.of("m5"));
    }

    @Test
    void dropSummarizeWithCapZeroStillKeepsOneLine() {
        // SPEC DI-3: a cap of 0 waits for nothing, and the next run still learns that something was dropped
        InboxRecord newest = queue("m1", "m2");

        QueueCap.enforce(lane, policy(0, DropPolicy.SUMMARIZE), newest);

        assertThat(lane.dropped).containsExactly("alice: m1");
        assertThat(lane.queue).isEmpty();
    }

    @Test
    void dropNewRefusesTheNewestMessageAndKeepsTheOlderOnes() {
        // SPEC DI-3 drop=new
        InboxRecord newest = queue("m1", "m2", "m3");

        Overflow overflow = QueueCap.enforce(lane, policy(2, DropPolicy.NEW), newest);

        assertThat(overflow.newestRefused()).isTrue();
        assertThat(overflow.records()).containsExactly(newest);
        assertThat(overflow.drops().get(0).reason()).isEqualTo("queue full (cap 2); newest refused");
        assertThat(waiting(lane)).containsExactly(List.of("m1"), List.of("m2"));
        assertThat(lane.dropped).isEmpty();
        assertThat(QueueCap.refusal(policy(2, DropPolicy.NEW)))
                .isEqualTo(
                        "⚠️ 2 messages are already waiting, so this one was not queued. Please send it again later.");
    }

    @Test
    void aSummaryNamesTheSenderAndTheStartOfTheTextOnOneLine() {
        // SPEC DI-3 drop=summarize: who sent it and what it began with
        assertThat(QueueCap.summary(
                        records.named("u1", "Alice", "  hello \n\t world  ", 0).message()))
                .isEqualTo("Alice: hello world");
        assertThat(QueueCap.summary(records.named("u1", null, "hi", 0).message()))
                .isEqualTo("u1: hi");
        String eighty = "x".repeat(80);
        assertThat(QueueCap.summary(records.named("u1", null, eighty, 0).message()))
                .isEqualTo("u1: " + eighty);
        assertThat(QueueCap.summary(records.named("u1", null, eighty + "y", 0).message()))
                .isEqualTo("u1: " + eighty + "…");
        assertThat(QueueCap.summary(records.named("u1", null, " ", 2).message()))
                .isEqualTo("u1: [2 attachment(s)]");
        assertThat(QueueCap.summary(records.named("u1", null, "see file", 2).message()))
                .isEqualTo("u1: see file");
        assertThat(QueueCap.summary(records.named("u1", null, "", 0).message())).isEqualTo("u1: ");
    }

    @Test
    void aRequestResponseCallerGetsAnUncappedFollowup() {
        // SPEC DI-3: the policy the dispatcher gives a caller waiting for its own answer
        QueuePolicy p = QueuePolicy.followup(7);
        assertThat(p).isEqualTo(new QueuePolicy(QueueMode.FOLLOWUP, Duration.ZERO, 7, DropPolicy.OLD));
    }
}

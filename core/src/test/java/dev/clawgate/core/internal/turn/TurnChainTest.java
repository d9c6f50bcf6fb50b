package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The turn's chain holds every stage to its contract (as OkHttp's chain holds each interceptor to one proceed()):
 * exactly one final state per inbox record, each stage hands the turn on at most once (SPEC IN-4, OUT-12).
 */
class TurnChainTest {
    @TempDir
    Path workspace;

    private TurnFixture f;
    private TurnEndings endings;

    @BeforeEach
    void wire() {
        f = new TurnFixture(workspace, "test");
        TurnServices s = f.services();
        endings = new TurnEndings(s, new Replies(s), new FinalReplies(s));
    }

    private Turn turn(InboxRecord... records) {
        return new Turn(List.of(records), f.config(), f.channel.messageAdapter(), f.handle(records));
    }

    private static TurnStage finishing(InboxState state) {
        return (t, chain) -> {
            for (InboxRecord r : t.batch()) t.finish(r.id(), state);
            return TurnOutcome.REPLIED;
        };
    }

    // SPEC IN-4: a turn that gives each record one final state passes the chain
    @Test
    void aStageThatFinishesEveryRecordOnceEndsTheTurn() {
        Turn turn = turn(f.record("alice", "hi"));
        TurnStage handOn = (t, chain) -> chain.proceed(t);
        TurnOutcome outcome = new TurnChain(List.of(handOn, finishing(InboxState.DONE)), endings).run(turn);
        assertThat(outcome).isEqualTo(TurnOutcome.REPLIED);
        assertThat(turn.finals().of(turn.id())).isEqualTo(InboxState.DONE);
    }

    // SPEC IN-4: a record given a second final state is a broken chain, not a silent no-op in the store
    @Test
    void aStageThatFinishesARecordTwiceIsCaught() {
        Turn turn = turn(f.record("alice", "hi"));
        TurnStage twice = (t, chain) -> {
            t.finish(t.id(), InboxState.DONE);
            t.finish(t.id(), InboxState.FAILED);
            return TurnOutcome.REPLIED;
        };
        assertThatThrownBy(() -> new TurnChain(List.of(twice), endings).run(turn))
                .isInstanceOf(FinalStates.Violation.class)
                .hasMessage("inbox " + turn.id() + " finished twice: DONE, then FAILED");
    }

    // SPEC IN-4: a turn that returns with a record still unfinished is caught, whichever record it is
    @Test
    void aStageThatNeverFinishesARecordIsCaught() {
        InboxRecord first = f.record("alice", "one");
        InboxRecord second = f.record("alice", "two");
        Turn turn = turn(first, second);
        TurnStage onlyTheLast = (t, chain) -> {
            t.finish(second.id(), InboxState.DONE);
            return TurnOutcome.REPLIED;
        };
        assertThatThrownBy(() -> new TurnChain(List.of(onlyTheLast), endings).run(turn))
                .isInstanceOf(FinalStates.Violation.class)
                .hasMessage("inbox " + first.id() + " left without a final state");
        TurnStage none = (t, chain) -> TurnOutcome.NO_REPLY;
        assertThatThrownBy(() -> new TurnChain(List.of(none), endings).run(turn(f.record("bob", "hi"))))
                .isInstanceOf(FinalStates.Violation.class)
                .hasMessageEndingWith("left without a final state");
    }

    // OkHttp's rule: a stage hands the turn on at most once, and the last one has no one to hand it to
    @Test
    void aStageThatHandsTheTurnOnTwiceOrPastTheEndIsCaught() {
        TurnStage twice = (t, chain) -> {
            chain.proceed(t);
            return chain.proceed(t);
        };
        assertThatThrownBy(() -> new TurnChain(List.of(twice, finishing(InboxState.DONE)), endings)
                        .run(turn(f.record("alice", "hi"))))
                .isInstanceOf(FinalStates.Violation.class)
                .hasMessage("stage 0 handed the turn on twice");
        TurnStage handOn = (t, chain) -> chain.proceed(t);
        assertThatThrownBy(() -> new TurnChain(List.of(handOn), endings).run(turn(f.record("bob", "hi"))))
                .isInstanceOf(FinalStates.Violation.class)
                .hasMessage("stage 0 is the last and has no stage to hand on to");
    }

    // SPEC IN-4: a cancel ends every record still open CANCELLED; one merged before keeps MERGED
    @Test
    void aCancelEndsTheRecordsStillOpenAndKeepsThoseFinishedBefore() {
        InboxRecord first = f.record("alice", "one");
        InboxRecord second = f.record("alice", "two");
        Turn turn = turn(first, second);
        TurnStage mergeThenCancelled = (t, chain) -> {
            f.store.inbox().mark(first.id(), InboxState.MERGED, "into turn " + second.id());
            t.finish(first.id(), InboxState.MERGED);
            throw new CancelledException("interrupted");
        };
        TurnOutcome outcome = new TurnChain(List.of(mergeThenCancelled), endings).run(turn);
        assertThat(outcome).isEqualTo(TurnOutcome.CANCELLED);
        assertThat(turn.finals().of(first.id())).isEqualTo(InboxState.MERGED);
        assertThat(turn.finals().of(second.id())).isEqualTo(InboxState.CANCELLED);
        assertThat(f.store.inbox().find(second.id()).orElseThrow().state()).isEqualTo(InboxState.CANCELLED);
    }

    // SPEC IN-4: a shutdown leaves the records for the restart: no final state, and the chain allows it
    @Test
    void aShutdownLeavesTheRecordsUnfinishedForTheRestart() {
        InboxRecord r = f.record("alice", "hi");
        TurnStage cut = (t, chain) -> {
            throw new CancelledException(RunHandle.REASON_SHUTDOWN);
        };
        assertThat(new TurnChain(List.of(cut), endings).run(turn(r))).isEqualTo(TurnOutcome.CANCELLED);
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state().isFinal()).isFalse();
    }
}

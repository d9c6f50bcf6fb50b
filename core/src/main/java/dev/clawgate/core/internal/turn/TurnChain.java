package dev.clawgate.core.internal.turn;

import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.RunHandle;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a turn's stages in order and enforces what no stage can check alone (as OkHttp's chain enforces "proceed exactly
 * once"): each stage hands the turn on at most once and returns an outcome, a cancel or a failure ends the turn through
 * {@link TurnEndings}, and every inbox record the turn answers leaves with exactly one final state (SPEC IN-4). Only a
 * shutdown leaves its records unfinished, for the restart to run again.
 */
final class TurnChain {
    private static final Logger log = LoggerFactory.getLogger(TurnPipeline.class);

    private final List<TurnStage> stages;
    private final TurnEndings endings;

    TurnChain(List<TurnStage> stages, TurnEndings endings) {
        if (stages.isEmpty()) throw new IllegalArgumentException("a turn has at least one stage");
        this.stages = List.copyOf(stages);
        this.endings = endings;
    }

    /**
     * Runs {@code turn} through every stage it reaches.
     *
     * @throws FinalStates.Violation when a stage broke the chain's rules: a record finished twice or not at all, a
     *     stage that handed the turn on twice or returned no outcome
     */
    TurnOutcome run(Turn turn) {
        TurnOutcome outcome = TurnOutcome.FAILED;
        boolean leftForRestart = false;
        try {
            outcome = new Link(0).proceed(turn);
        } catch (FinalStates.Violation e) {
            throw e;
        } catch (CancelledException e) {
            leftForRestart = RunHandle.REASON_SHUTDOWN.equals(e.getMessage());
            outcome = endings.cancelled(turn, e.getMessage());
        } catch (RuntimeException e) {
            log.error("turn {} failed", turn.id(), e);
            endings.failTurn(turn, e);
        }
        if (!leftForRestart) turn.finals().requireEach(turn.batch());
        return outcome;
    }

    /** The chain as stage {@code index} sees it: {@link #proceed} runs the stage after it. */
    private final class Link implements TurnStage.Chain {
        private final int index;
        private boolean proceeded;

        Link(int index) {
            this.index = index;
        }

        @Override
        public TurnOutcome proceed(Turn turn) {
            if (proceeded) throw new FinalStates.Violation("stage " + (index - 1) + " handed the turn on twice");
            proceeded = true;
            if (index >= stages.size()) {
                throw new FinalStates.Violation("stage " + (index - 1) + " is the last and has no stage to hand on to");
            }
            TurnOutcome outcome = stages.get(index).handle(turn, new Link(index + 1));
            if (outcome == null) throw new FinalStates.Violation("stage " + index + " returned no outcome");
            return outcome;
        }
    }
}

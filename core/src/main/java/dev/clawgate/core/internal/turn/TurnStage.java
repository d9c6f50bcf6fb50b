package dev.clawgate.core.internal.turn;

import dev.clawgate.core.outbound.TurnOutcome;

/**
 * One stage of a turn (STYLE: OkHttp's {@code Interceptor}): it ends the turn, giving each of its inbox records a final
 * state through {@link Turn#finals()}, or hands it on with {@link Chain#proceed} once. {@link TurnChain} holds every
 * stage to that.
 */
@FunctionalInterface
interface TurnStage {

    TurnOutcome handle(Turn turn, Chain chain);

    /** The rest of the turn's stages. */
    interface Chain {
        /**
         * Runs the next stage.
         *
         * @throws FinalStates.Violation when called twice, or by the last stage
         */
        TurnOutcome proceed(Turn turn);
    }
}

package dev.clawgate.core.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnRunnerTest {

    @Test
    void aRunnerFollowedByAnotherStepKeepsItsReceiptHooks() throws Exception {
        // SPEC RP-5: a wrapper around the turn pipeline (memory consolidation, ME-6) must not swallow the receipt hooks
        List<String> seen = new ArrayList<>();
        TurnRunner pipeline = new TurnRunner() {
            @Override
            public void run(RunHandle handle) {
                seen.add("run");
            }

            @Override
            public void admitted(InboxRecord record) {
                seen.add("admitted " + record.id());
            }

            @Override
            public void settled(InboxRecord record, InboxState state) {
                seen.add("settled " + record.id() + " " + state);
            }
        };
        TurnRunner wrapped = pipeline.andThen(handle -> seen.add("after"));
        InboxRecord record = new InboxRecord(7, null, null, InboxState.RECEIVED, 1, Instant.EPOCH);

        wrapped.admitted(record);
        wrapped.run(new RunHandle(List.of(record), Instant.EPOCH));
        wrapped.settled(record, InboxState.DONE);

        assertThat(seen).containsExactly("admitted 7", "run", "after", "settled 7 DONE");
    }

    @Test
    void theNextStepDoesNotRunWhenTheTurnThrows() {
        // SPEC ME-6: only a turn that ran to its end is handed on
        List<String> seen = new ArrayList<>();
        TurnRunner failing = handle -> {
            throw new IllegalStateException("model down");
        };
        TurnRunner wrapped = failing.andThen(handle -> seen.add("after"));
        InboxRecord record = new InboxRecord(8, null, null, InboxState.DISPATCHED, 1, Instant.EPOCH);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> wrapped.run(new RunHandle(List.of(record), Instant.EPOCH)))
                .hasMessage("model down");
        assertThat(seen).isEmpty();
    }
}

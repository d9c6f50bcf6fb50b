package dev.clawgate.core.internal.run;

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
    void aRunnerFollowedByAnotherStepRunsBothInOrder() throws Exception {
        // SPEC ME-6: the consolidation step follows the turn with the same handle
        List<String> seen = new ArrayList<>();
        TurnRunner pipeline = handle -> seen.add("run " + handle.record().id());
        TurnRunner wrapped =
                pipeline.andThen(handle -> seen.add("after " + handle.record().id()));
        InboxRecord record = new InboxRecord(7, null, null, InboxState.RECEIVED, 1, Instant.EPOCH);

        wrapped.run(new RunHandle(List.of(record), Instant.EPOCH));

        assertThat(seen).containsExactly("run 7", "after 7");
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
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> wrapped.run(new RunHandle(List.of(record), Instant.EPOCH)))
                .hasMessage("model down");
        assertThat(seen).isEmpty();
    }
}

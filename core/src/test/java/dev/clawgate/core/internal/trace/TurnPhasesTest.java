package dev.clawgate.core.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The phase hook: a listener hears the phases of its thread only, nested as the calls are (SPEC OP-8, OP-9). */
class TurnPhasesTest {
    private final List<String> heard = new CopyOnWriteArrayList<>();

    private PhaseListener recording() {
        return (phase, name) -> {
            heard.add("begin " + phase.wireName() + " " + name);
            return new PhaseScope() {
                @Override
                public void attribute(String key, String value) {
                    heard.add(key + "=" + value);
                }

                @Override
                public void failed(String reason) {
                    heard.add("failed " + reason);
                }

                @Override
                public void close() {
                    heard.add("end " + phase.wireName());
                }
            };
        };
    }

    @Test
    void withoutAListenerAPhaseCostsNothingAndIsHeardByNoOne() {
        // SPEC OP-9: off and free
        try (PhaseScope p = TurnPhases.begin(Phase.MODEL_CALL, "fake/m")) {
            assertThat(p).isSameAs(PhaseScope.NONE);
            p.attribute("outcome", "ok");
        }
        assertThat(TurnPhases.current()).isSameAs(PhaseListener.NONE);
        assertThat(heard).isEmpty();
    }

    @Test
    void theTurnsListenerHearsItsPhasesInOrderAndIsGoneAfterTheTurn() {
        // SPEC OP-9
        TurnPhases.runWith(recording(), () -> {
            try (PhaseScope tool = TurnPhases.begin(Phase.TOOL_CALL, "message_send")) {
                try (PhaseScope send = TurnPhases.begin(Phase.SEND, "telegram")) {
                    send.failed("transient");
                }
                tool.attribute("outcome", "ok");
            }
        });
        assertThat(heard)
                .containsExactly(
                        "begin tool_call message_send",
                        "begin send telegram",
                        "failed transient",
                        "end send",
                        "outcome=ok",
                        "end tool_call");
        assertThat(TurnPhases.current()).isSameAs(PhaseListener.NONE);
    }

    @Test
    void carriedWorkIsHeardOnAnotherThreadAndOtherThreadsAreNot() throws Exception {
        // SPEC OP-9: a streamed block's send runs on the block sender's thread, still part of the turn
        List<Runnable> handedOver = new ArrayList<>();
        TurnPhases.runWith(recording(), () -> {
            handedOver.add(
                    TurnPhases.carry(() -> TurnPhases.begin(Phase.SEND, "slack").close()));
            handedOver.add(() -> TurnPhases.begin(Phase.SEND, "not carried").close());
        });
        for (Runnable r : handedOver) {
            Thread t = Thread.ofVirtual().start(r);
            t.join();
        }
        assertThat(heard).containsExactly("begin send slack", "end send");
    }
}

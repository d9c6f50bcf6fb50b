package dev.clawgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.TranscriptEntry;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs the benchmark harness the way JMH does (trial setup, one operation, trial teardown), so {@code verify} proves
 * the benchmarks measure real, completed turns without running them.
 */
class TurnPipelineBenchmarkSmokeTest {
    private final TurnPipelineBenchmark benchmark = new TurnPipelineBenchmark();
    private final TurnPipelineBenchmark.Pipeline pipeline = new TurnPipelineBenchmark.Pipeline();

    @AfterEach
    void tearDown() {
        if (pipeline.gateway != null && Files.exists(pipeline.gateway.directory())) pipeline.gateway.close();
    }

    // SPEC DI-2: one message goes inbox -> dispatcher -> turn pipeline -> channel, and is committed
    @Test
    void singleTurnOperationDeliversTheModelReplyAndCommitsTheTurn() throws Exception {
        pipeline.toolEvery = 4;
        pipeline.start();
        InProcessGateway gateway = pipeline.gateway();

        OutboundMessage reply = benchmark.singleTurn(pipeline);

        assertThat(reply.kind()).isEqualTo(OutboundMessage.Kind.FINAL);
        assertThat(reply.text()).isEqualTo(InstantProvider.REPLY);
        assertThat(gateway.channel().sends(OutboundMessage.Kind.FINAL)).isEqualTo(1);
        assertThat(gateway.channel().unawaitedSends()).isZero();
        assertThat(gateway.store().inbox().counts()).containsEntry(InboxState.DONE, 1L);
        List<TranscriptEntry> transcript = gateway.store().transcripts().load(session("solo"), 10);
        assertThat(transcript)
                .extracting(TranscriptEntry::role, TranscriptEntry::content)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(Role.USER, TurnPipelineBenchmark.TEXT),
                        org.assertj.core.groups.Tuple.tuple(Role.ASSISTANT, InstantProvider.REPLY));

        pipeline.stop();
        assertThat(gateway.directory()).doesNotExist();
    }

    // SPEC DI-2: 64 sessions at once stay within max_in_flight (default 8 for one channel), every turn done
    // SPEC OP-7: the channel keeps no reply it is not waiting for; the temporary store is removed at teardown
    @Test
    void manySendersOperationCompletesEveryTurnWithinTheInFlightBound() throws Exception {
        pipeline.toolEvery = 4;
        pipeline.start();
        InProcessGateway gateway = pipeline.gateway();
        int turns = TurnPipelineBenchmark.SENDERS * TurnPipelineBenchmark.TURNS_PER_SENDER;

        benchmark.manySenders(pipeline);

        assertThat(gateway.store().inbox().counts())
                .containsEntry(InboxState.DONE, (long) turns)
                .allSatisfy((state, count) -> assertThat(count).isEqualTo(state == InboxState.DONE ? turns : 0L));
        assertThat(gateway.store().transcripts().sessions()).hasSize(TurnPipelineBenchmark.SENDERS);
        assertThat(gateway.channel().sends(OutboundMessage.Kind.FINAL)).isEqualTo(turns);
        assertThat(gateway.channel().sends(OutboundMessage.Kind.ERROR)).isZero();
        assertThat(gateway.channel().unawaitedSends()).isZero();
        assertThat(gateway.provider().maxConcurrentCalls()).isBetween(1, 8);
        // every 4th turn went through the tool: two model calls and a tool note in the stored reply
        assertThat(gateway.provider().toolCalls()).isEqualTo(turns / 4);
        assertThat(gateway.provider().calls()).isEqualTo(turns + turns / 4);
        long toolReplies = 0;
        for (int s = 0; s < TurnPipelineBenchmark.SENDERS; s++) {
            toolReplies += gateway.store().transcripts().load(session("user-" + s), 100).stream()
                    .filter(e -> e.role() == Role.ASSISTANT)
                    .filter(e ->
                            e.content().equals("[Used tools: lookup]\n" + InstantProvider.TOOL_REPLY_PREFIX + "Paris"))
                    .count();
        }
        assertThat(toolReplies).isEqualTo(turns / 4);

        pipeline.stop();
        assertThat(gateway.directory()).doesNotExist();
        assertThat(gateway.dispatcher().idle()).isTrue();
    }

    private static SessionKey session(String sender) {
        return new SessionKey(BenchChannel.NAME, null, ChatType.DIRECT, sender, null, sender);
    }
}

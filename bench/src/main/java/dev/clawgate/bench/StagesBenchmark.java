package dev.clawgate.bench;

import dev.clawgate.bench.stages.ChunkStage;
import dev.clawgate.bench.stages.InboundStage;
import dev.clawgate.bench.stages.OutboxStage;
import dev.clawgate.bench.stages.PromptStage;
import dev.clawgate.bench.stages.RecallStage;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.render.Chunker;
import dev.clawgate.core.store.InboxRecord;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One benchmark per hot stage of a message's way through the gateway (issue 27), each on the production code and, where
 * the stage touches the store, a real SQLite store in a temporary folder (WAL, {@code synchronous=NORMAL}), so a
 * regression shows in the stage that has it. One thread, time per operation; the states (package
 * {@code dev.clawgate.bench.stages}) say what each input is and how writing stages keep their data bounded.
 *
 * <ol>
 *   <li>{@link #inboundRecord}: the inbox's commit of one message and its dedupe key ({@link InboundStage});
 *   <li>{@link #recall}: keyword memory recall and ME-3's filter over a scope of 1,000 or 10,000 memories
 *       ({@link RecallStage});
 *   <li>{@link #promptBuild}: the system prompt and the 50-message history of a turn's first model call
 *       ({@link PromptStage});
 *   <li>reply sanitising: {@link PureStagesBenchmark#sanitizeReply}, with the other I/O-free stages;
 *   <li>{@link #chunkForTelegram}: a long reply cut to Telegram's 4,096 units ({@link ChunkStage});
 *   <li>{@link #outboxClaimAndAck}: one pending reply claimed, sent to an instant platform and marked sent
 *       ({@link OutboxStage}).
 * </ol>
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-Dclawgate.log.level=WARN"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StagesBenchmark {

    @Benchmark
    public Optional<InboxRecord> inboundRecord(InboundStage s) {
        return s.record(s.nextMessage());
    }

    @Benchmark
    public List<MemoryLine> recall(RecallStage s) {
        return s.recall(s.nextQuery());
    }

    @Benchmark
    public List<ChatMessage> promptBuild(PromptStage s) {
        return s.conversation.build(s.current, s.config, s.route, s.tools, s.memory);
    }

    @Benchmark
    public List<String> chunkForTelegram(ChunkStage s) {
        return Chunker.split(s.reply, s.limits);
    }

    @Benchmark
    public DeliveryOutcome outboxClaimAndAck(OutboxStage s) {
        return s.outbox.deliver(s.next(), s.platform);
    }
}

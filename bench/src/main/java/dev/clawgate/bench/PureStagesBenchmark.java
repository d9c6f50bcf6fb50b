package dev.clawgate.bench;

import dev.clawgate.core.internal.history.HistoryNormalizer;
import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import dev.clawgate.core.internal.toolcall.ParsedReply;
import dev.clawgate.core.internal.toolcall.ToolCallParser;
import dev.clawgate.core.model.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * (c) The pure, I/O-free stages of a turn on typical input, for reference next to the whole turn: history normalisation
 * of a 50-message transcript, sanitising a final reply, and reading a prompt-guided tool call out of a reply.
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PureStagesBenchmark {

    @State(Scope.Benchmark)
    public static class Sample {
        /** What {@code history.max_messages = 50} loads: alternating turns, a few of them with tools. */
        List<ChatMessage> history;
        /** A final reply as a model writes it: a sentence, a short list, a closing line. */
        String reply;
        /** A prompt-guided reply that asks for a tool. */
        String toolReply;

        Set<String> toolNames;

        @Setup
        public void build() {
            toolNames = Set.of("file_read", "file_write", "file_list", "shell", LookupTool.NAME);
            reply = """
                    The capital of France is **Paris**. A few facts:

                    - It has about 2.1 million inhabitants in the city proper.
                    - The Seine runs through it.
                    - It has been the capital for most of the last thousand years.

                    Let me know if you want more detail.""";
            toolReply = """
                    Let me look that up.
                    <tool_call>
                    {"name": "lookup", "arguments": {"key": "capital-of-france"}}
                    </tool_call>""";
            history = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                history.add(
                        ChatMessage.user("Question number " + i + ": what about the fact with key item-" + i + "?"));
                history.add(ChatMessage.assistant(
                        i % 4 == 3
                                ? "[Used tools: lookup]\nThe lookup said: value " + i + ". " + reply
                                : "Here is what I know about item-" + i + ". " + reply));
            }
            history.add(ChatMessage.user("[Tool results]\n<tool_result name=\"lookup\">\nParis\n</tool_result>"));
            history.add(ChatMessage.user(TurnPipelineBenchmark.TEXT));
        }
    }

    @Benchmark
    public List<ChatMessage> normalizeHistory(Sample s) {
        return HistoryNormalizer.normalize(s.history, false);
    }

    @Benchmark
    public String sanitizeReply(Sample s) {
        return ReplySanitizer.sanitize(s.reply, s.toolNames);
    }

    @Benchmark
    public ParsedReply parsePlainReply(Sample s) {
        return ToolCallParser.parse(s.reply);
    }

    @Benchmark
    public ParsedReply parseToolCallReply(Sample s) {
        return ToolCallParser.parse(s.toolReply);
    }
}

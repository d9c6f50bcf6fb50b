package dev.clawgate.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.provider.internal.ToolCallParser;
import org.junit.jupiter.api.Test;

/** Tool-call fragments from servers that bend the format (SPEC SP-4: Ollama, vLLM, llama.cpp). */
class StreamAssemblerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ChatResponse assemble(String... chunks) throws Exception {
        StreamAssembler a = new StreamAssembler(StreamObserver.NONE);
        for (String c : chunks) a.accept(JSON.readTree(c));
        return a.response();
    }

    @Test
    void fragmentsWithoutIndexContinueTheLastCallUntilANewIdArrives() throws Exception {
        // SPEC SP-4
        ChatResponse r = assemble(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":"
                        + "\"{\\\"x\\\":\"}}]}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"1}\"}}]}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"b\",\"function\":{\"name\":\"g\",\"arguments\":{"
                        + "\"y\":2}}}]},\"finish_reason\":\"tool_calls\"}]}");
        assertThat(r.toolCalls()).extracting(ToolCall::id).containsExactly("a", "b");
        assertThat(r.toolCalls().get(0).arguments().path("x").asInt()).isEqualTo(1);
        assertThat(r.toolCalls().get(1).arguments().path("y").asInt()).isEqualTo(2);
        assertThat(r.finishReason()).isEqualTo("tool_calls");
    }

    @Test
    void aCallWithoutIdGetsOneAndACallWithoutNameIsMalformed() throws Exception {
        // SPEC SP-4
        ChatResponse r = assemble(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\""
                        + "\"}}]}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"z\",\"function\":{\"arguments\":\"{}"
                        + "\"}}]}}]}");
        assertThat(r.toolCalls().get(0).id()).startsWith("call_0_");
        assertThat(r.toolCalls().get(0).malformed()).isFalse();
        assertThat(r.toolCalls().get(0).arguments().isEmpty()).isTrue();
        assertThat(r.toolCalls().get(1).parseError()).contains("no function name");
    }

    @Test
    void trailingGarbageAfterTheArgumentsObjectIsAParseError() {
        // SPEC SP-4 (AG-1)
        ToolCall c = ToolCallParser.fromText("i", "f", "{\"a\":1} trailing", 0);
        assertThat(c.malformed()).isTrue();
        assertThat(c.parseError()).contains("trailing");
    }
}

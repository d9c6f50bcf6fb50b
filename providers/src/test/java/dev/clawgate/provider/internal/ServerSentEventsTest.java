package dev.clawgate.provider.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The SSE reader behind streamed answers (SPEC SP-4). */
class ServerSentEventsTest {
    private static List<ServerSentEvents.Event> all(InputStream in) throws IOException {
        ServerSentEvents sse = new ServerSentEvents(in);
        List<ServerSentEvents.Event> out = new ArrayList<>();
        for (ServerSentEvents.Event e; (e = sse.next()) != null; ) out.add(e);
        return out;
    }

    private static InputStream bytes(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void dataLinesAreJoinedAndCommentsAndOtherFieldsIgnored() throws Exception {
        // SPEC SP-4: OpenRouter sends ": OPENROUTER PROCESSING" comments
        List<ServerSentEvents.Event> ev = all(bytes(
                ": keep-alive\n\ndata: {\"a\":1}\n\nid: 7\nevent: error\ndata: x\ndata:y\r\n\r\ndata: [DONE]\n\n"));
        assertThat(ev)
                .containsExactly(
                        new ServerSentEvents.Event("message", "{\"a\":1}"),
                        new ServerSentEvents.Event("error", "x\ny"),
                        new ServerSentEvents.Event("message", "[DONE]"));
    }

    @Test
    void aLastEventWithoutBlankLineIsStillDelivered() throws Exception {
        // SPEC SP-4
        assertThat(all(bytes("data: tail"))).containsExactly(new ServerSentEvents.Event("message", "tail"));
        assertThat(all(bytes(""))).isEmpty();
    }

    @Test
    void eventsSurviveAnySplitOfTheBytesIncludingInsideMultibyteCharacters() throws Exception {
        // SPEC SP-4: property over random read sizes; the seed is in the failure message
        String text = "data: {\"content\":\"héllo wörld — 日本語 🙂\"}\n\ndata: second\n\n";
        byte[] raw = text.getBytes(StandardCharsets.UTF_8);
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int round = 0; round < 500; round++) {
            InputStream dribble = new InputStream() {
                int pos;

                @Override
                public int read() {
                    return pos < raw.length ? raw[pos++] & 0xff : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (pos >= raw.length) return -1;
                    int n = Math.min(Math.min(len, raw.length - pos), 1 + random.nextInt(5));
                    System.arraycopy(raw, pos, b, off, n);
                    pos += n;
                    return n;
                }
            };
            assertThat(all(dribble))
                    .as("seed %d", seed)
                    .extracting(ServerSentEvents.Event::data)
                    .containsExactly("{\"content\":\"héllo wörld — 日本語 🙂\"}", "second");
        }
    }
}

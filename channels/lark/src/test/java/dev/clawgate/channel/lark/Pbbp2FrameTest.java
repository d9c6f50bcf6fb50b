package dev.clawgate.channel.lark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written pbbp2 codec (SPEC CH-11): the proto2 wire format of the SDKs' schema, byte for byte. */
class Pbbp2FrameTest {
    @Test
    void aPingIsTheBytesProtobufWritesForIt() {
        // SPEC CH-11: SeqID=0, LogID=0, service=300 (varint 0xac 0x02), method=0, headers [{type, ping}]
        byte[] ping = Pbbp2Frame.ping(300).encode();
        assertThat(HexFormat.of().formatHex(ping))
                .isEqualTo("08001000" + "18ac02" + "2000" + "2a0c" + "0a0474797065" + "120470696e67");
    }

    @Test
    void aFrameFromThePlatformIsReadWithItsHeadersAndPayloadAndUnknownFieldsSkipped() {
        // SPEC CH-11: fields 1..9 as the schema numbers them; a field this codec does not know is stepped over
        String hex = "0807" + "1009" + "1801" + "2001" + "2a0d0a047479706512056576656e74" + "4202" + "7b7d"
                + "5801" // field 11, varint: unknown
                + "4a0378797a";
        Pbbp2Frame f = Pbbp2Frame.decode(HexFormat.of().parseHex(hex));
        assertThat(f.seqId()).isEqualTo(7);
        assertThat(f.logId()).isEqualTo(9);
        assertThat(f.service()).isEqualTo(1);
        assertThat(f.method()).isEqualTo(Pbbp2Frame.DATA);
        assertThat(f.header("type")).isEqualTo("event");
        assertThat(new String(f.payload(), StandardCharsets.UTF_8)).isEqualTo("{}");
        assertThat(f.logIdNew()).isEqualTo("xyz");
    }

    @Test
    void anyFrameSurvivesARoundTripAndATruncatedOneIsRefused() {
        // SPEC CH-11: property over 2 000 seeded frames (large ids, many headers, binary payloads)
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            List<Pbbp2Frame.Header> hs = new java.util.ArrayList<>();
            for (int h = r.nextInt(6); h > 0; h--)
                hs.add(new Pbbp2Frame.Header("k" + r.nextInt(), "v\u00e9" + r.nextLong()));
            byte[] payload = r.nextBoolean() ? null : new byte[r.nextInt(300)];
            if (payload != null) r.nextBytes(payload);
            Pbbp2Frame f = new Pbbp2Frame(
                    r.nextLong() & Long.MAX_VALUE,
                    r.nextLong(),
                    r.nextInt(100_000),
                    r.nextInt(2),
                    hs,
                    r.nextBoolean() ? null : "json",
                    null,
                    payload,
                    r.nextBoolean() ? null : "log-" + i);
            byte[] bytes = f.encode();
            Pbbp2Frame back = Pbbp2Frame.decode(bytes);
            assertThat(back.seqId()).as("seed %d", seed).isEqualTo(f.seqId());
            assertThat(back.logId()).as("seed %d", seed).isEqualTo(f.logId());
            assertThat(back.service()).isEqualTo(f.service());
            assertThat(back.headers()).isEqualTo(f.headers());
            assertThat(back.payload()).isEqualTo(f.payload());
            assertThat(back.payloadEncoding()).isEqualTo(f.payloadEncoding());
            assertThat(back.logIdNew()).isEqualTo(f.logIdNew());
            if (payload != null && payload.length > 0) {
                byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 1);
                if (f.logIdNew() == null) {
                    assertThatThrownBy(() -> Pbbp2Frame.decode(cut)).isInstanceOf(IllegalArgumentException.class);
                }
            }
        }
    }
}

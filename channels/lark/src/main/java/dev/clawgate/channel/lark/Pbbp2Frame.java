package dev.clawgate.channel.lark;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One frame of the long connection (SPEC CH-11): the official SDKs' {@code pbbp2.Frame}, a proto2 message, encoded and
 * decoded here by hand (six field types; no protoc, no library):
 *
 * <pre>
 * message Header { required string key = 1; required string value = 2; }
 * message Frame {
 *   required uint64 SeqID = 1; required uint64 LogID = 2; required int32 service = 3; required int32 method = 4;
 *   repeated Header headers = 5; optional string payload_encoding = 6; optional string payload_type = 7;
 *   optional bytes payload = 8; optional string LogIDNew = 9;
 * }
 * </pre>
 *
 * {@code method} 0 is a control frame (headers {@code type} = {@code ping} / {@code pong}), 1 a data frame (headers
 * {@code type} = {@code event}, {@code message_id}, {@code sum}, {@code seq}, {@code trace_id}).
 */
record Pbbp2Frame(
        long seqId,
        long logId,
        int service,
        int method,
        List<Header> headers,
        String payloadEncoding,
        String payloadType,
        byte[] payload,
        String logIdNew) {
    static final int CONTROL = 0;
    static final int DATA = 1;

    record Header(String key, String value) {}

    Pbbp2Frame {
        headers = List.copyOf(headers);
    }

    /** The client's ping on {@code service}. */
    static Pbbp2Frame ping(int service) {
        return new Pbbp2Frame(0, 0, service, CONTROL, List.of(new Header("type", "ping")), null, null, null, null);
    }

    /** The first value of header {@code key}, or null. */
    String header(String key) {
        for (Header h : headers) {
            if (h.key().equals(key)) return h.value();
        }
        return null;
    }

    /** The header as a number, or {@code fallback} when missing or not one. */
    int intHeader(String key, int fallback) {
        String v = header(key);
        if (v == null) return fallback;
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** This frame sent back as its response: one more header and {@code payload} in place of the event's. */
    Pbbp2Frame answer(Header extra, byte[] newPayload) {
        List<Header> hs = new ArrayList<>(headers);
        hs.add(extra);
        return new Pbbp2Frame(seqId, logId, service, method, hs, payloadEncoding, payloadType, newPayload, logIdNew);
    }

    byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + (payload == null ? 0 : payload.length));
        varintField(out, 1, seqId);
        varintField(out, 2, logId);
        varintField(out, 3, service);
        varintField(out, 4, method);
        for (Header h : headers) {
            ByteArrayOutputStream hb = new ByteArrayOutputStream();
            bytesField(hb, 1, h.key().getBytes(StandardCharsets.UTF_8));
            bytesField(hb, 2, h.value().getBytes(StandardCharsets.UTF_8));
            bytesField(out, 5, hb.toByteArray());
        }
        if (payloadEncoding != null) bytesField(out, 6, payloadEncoding.getBytes(StandardCharsets.UTF_8));
        if (payloadType != null) bytesField(out, 7, payloadType.getBytes(StandardCharsets.UTF_8));
        if (payload != null) bytesField(out, 8, payload);
        if (logIdNew != null) bytesField(out, 9, logIdNew.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** @throws IllegalArgumentException when {@code bytes} is not a well-formed frame */
    static Pbbp2Frame decode(byte[] bytes) {
        Reader r = new Reader(bytes, 0, bytes.length);
        long seq = 0;
        long log = 0;
        int service = 0;
        int method = 0;
        List<Header> headers = new ArrayList<>();
        String encoding = null;
        String type = null;
        byte[] payload = null;
        String logNew = null;
        while (r.more()) {
            long tag = r.varint();
            int field = (int) (tag >>> 3);
            int wire = (int) (tag & 7);
            switch (field) {
                case 1 -> seq = r.expect(wire, 0).varint();
                case 2 -> log = r.expect(wire, 0).varint();
                case 3 -> service = (int) r.expect(wire, 0).varint();
                case 4 -> method = (int) r.expect(wire, 0).varint();
                case 5 -> headers.add(header(r.expect(wire, 2).bytes()));
                case 6 -> encoding = r.expect(wire, 2).string();
                case 7 -> type = r.expect(wire, 2).string();
                case 8 -> payload = r.expect(wire, 2).bytes();
                case 9 -> logNew = r.expect(wire, 2).string();
                default -> r.skip(wire);
            }
        }
        return new Pbbp2Frame(seq, log, service, method, headers, encoding, type, payload, logNew);
    }

    private static Header header(byte[] bytes) {
        Reader r = new Reader(bytes, 0, bytes.length);
        String key = "";
        String value = "";
        while (r.more()) {
            long tag = r.varint();
            int wire = (int) (tag & 7);
            switch ((int) (tag >>> 3)) {
                case 1 -> key = r.expect(wire, 2).string();
                case 2 -> value = r.expect(wire, 2).string();
                default -> r.skip(wire);
            }
        }
        return new Header(key, value);
    }

    private static void varintField(ByteArrayOutputStream out, int field, long value) {
        varint(out, (long) field << 3);
        varint(out, value);
    }

    private static void bytesField(ByteArrayOutputStream out, int field, byte[] value) {
        varint(out, ((long) field << 3) | 2);
        varint(out, value.length);
        out.writeBytes(value);
    }

    /** Base-128, least significant group first; a negative int32 takes ten bytes, as protobuf sign-extends it. */
    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static final class Reader {
        private final byte[] b;
        private int at;
        private final int end;

        Reader(byte[] b, int at, int end) {
            this.b = b;
            this.at = at;
            this.end = end;
        }

        boolean more() {
            return at < end;
        }

        Reader expect(int wire, int wanted) {
            if (wire != wanted) throw new IllegalArgumentException("wire type " + wire + ", expected " + wanted);
            return this;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (at >= end) throw new IllegalArgumentException("truncated varint");
                byte x = b[at++];
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) return v;
            }
            throw new IllegalArgumentException("varint longer than 10 bytes");
        }

        byte[] bytes() {
            long n = varint();
            if (n < 0 || n > end - at) throw new IllegalArgumentException("length " + n + " beyond the frame");
            byte[] out = new byte[(int) n];
            System.arraycopy(b, at, out, 0, (int) n);
            at += (int) n;
            return out;
        }

        String string() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        void skip(int wire) {
            switch (wire) {
                case 0 -> varint();
                case 1 -> advance(8);
                case 2 -> bytes();
                case 5 -> advance(4);
                default -> throw new IllegalArgumentException("unsupported wire type " + wire);
            }
        }

        private void advance(int n) {
            if (n > end - at) throw new IllegalArgumentException("truncated field");
            at += n;
        }
    }
}

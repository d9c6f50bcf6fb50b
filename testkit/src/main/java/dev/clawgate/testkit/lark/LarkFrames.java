package dev.clawgate.testkit.lark;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;

/**
 * The long connection's frames as the official SDKs define them ({@code pbbp2.proto}, proto2), encoded and parsed by
 * the protobuf runtime from that schema, so a frame the channel codes by hand must be real protobuf to pass (a missing
 * required field fails the parse):
 *
 * <pre>
 * message Header { required string key = 1; required string value = 2; }
 * message Frame {
 *   required uint64 SeqID = 1; required uint64 LogID = 2; required int32 service = 3; required int32 method = 4;
 *   repeated Header headers = 5; optional string payload_encoding = 6; optional string payload_type = 7;
 *   optional bytes payload = 8; optional string LogIDNew = 9;
 * }
 * </pre>
 */
final class LarkFrames {
    static final int CONTROL = 0;
    static final int DATA = 1;

    private static final Descriptors.Descriptor FRAME;
    private static final Descriptors.Descriptor HEADER;

    static {
        DescriptorProto header = DescriptorProto.newBuilder()
                .setName("Header")
                .addField(field("key", 1, FieldDescriptorProto.Type.TYPE_STRING, true))
                .addField(field("value", 2, FieldDescriptorProto.Type.TYPE_STRING, true))
                .build();
        DescriptorProto frame = DescriptorProto.newBuilder()
                .setName("Frame")
                .addField(field("SeqID", 1, FieldDescriptorProto.Type.TYPE_UINT64, true))
                .addField(field("LogID", 2, FieldDescriptorProto.Type.TYPE_UINT64, true))
                .addField(field("service", 3, FieldDescriptorProto.Type.TYPE_INT32, true))
                .addField(field("method", 4, FieldDescriptorProto.Type.TYPE_INT32, true))
                .addField(FieldDescriptorProto.newBuilder()
                        .setName("headers")
                        .setNumber(5)
                        .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                        .setTypeName(".pbbp2.Header")
                        .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
                .addField(field("payload_encoding", 6, FieldDescriptorProto.Type.TYPE_STRING, false))
                .addField(field("payload_type", 7, FieldDescriptorProto.Type.TYPE_STRING, false))
                .addField(field("payload", 8, FieldDescriptorProto.Type.TYPE_BYTES, false))
                .addField(field("LogIDNew", 9, FieldDescriptorProto.Type.TYPE_STRING, false))
                .build();
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("pbbp2.proto")
                .setPackage("pbbp2")
                .setSyntax("proto2")
                .addMessageType(header)
                .addMessageType(frame)
                .build();
        try {
            Descriptors.FileDescriptor fd =
                    Descriptors.FileDescriptor.buildFrom(file, new Descriptors.FileDescriptor[0]);
            HEADER = fd.findMessageTypeByName("Header");
            FRAME = fd.findMessageTypeByName("Frame");
        } catch (Descriptors.DescriptorValidationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One frame; {@code headers} in order, {@code payload} null when absent. */
    record Frame(long seqId, long logId, int service, int method, List<String[]> headers, byte[] payload) {
        String header(String key) {
            for (String[] h : headers) {
                if (h[0].equals(key)) return h[1];
            }
            return null;
        }
    }

    private LarkFrames() {}

    private static FieldDescriptorProto field(String name, int number, FieldDescriptorProto.Type type, boolean req) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(req ? FieldDescriptorProto.Label.LABEL_REQUIRED : FieldDescriptorProto.Label.LABEL_OPTIONAL)
                .build();
    }

    static byte[] encode(Frame f) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(FRAME)
                .setField(FRAME.findFieldByName("SeqID"), f.seqId())
                .setField(FRAME.findFieldByName("LogID"), f.logId())
                .setField(FRAME.findFieldByName("service"), f.service())
                .setField(FRAME.findFieldByName("method"), f.method());
        for (String[] h : f.headers()) {
            DynamicMessage header = DynamicMessage.newBuilder(HEADER)
                    .setField(HEADER.findFieldByName("key"), h[0])
                    .setField(HEADER.findFieldByName("value"), h[1])
                    .build();
            b.addRepeatedField(FRAME.findFieldByName("headers"), header);
        }
        if (f.payload() != null) b.setField(FRAME.findFieldByName("payload"), ByteString.copyFrom(f.payload()));
        return b.build().toByteArray();
    }

    /** @throws InvalidProtocolBufferException when {@code bytes} is not a complete pbbp2 frame */
    static Frame decode(byte[] bytes) throws InvalidProtocolBufferException {
        DynamicMessage m = DynamicMessage.parseFrom(FRAME, bytes);
        List<String[]> headers = new ArrayList<>();
        Descriptors.FieldDescriptor hs = FRAME.findFieldByName("headers");
        for (int i = 0; i < m.getRepeatedFieldCount(hs); i++) {
            DynamicMessage h = (DynamicMessage) m.getRepeatedField(hs, i);
            headers.add(new String[] {
                (String) h.getField(HEADER.findFieldByName("key")), (String) h.getField(HEADER.findFieldByName("value"))
            });
        }
        Descriptors.FieldDescriptor p = FRAME.findFieldByName("payload");
        return new Frame(
                (Long) m.getField(FRAME.findFieldByName("SeqID")),
                (Long) m.getField(FRAME.findFieldByName("LogID")),
                (Integer) m.getField(FRAME.findFieldByName("service")),
                (Integer) m.getField(FRAME.findFieldByName("method")),
                headers,
                m.hasField(p) ? ((ByteString) m.getField(p)).toByteArray() : null);
    }
}

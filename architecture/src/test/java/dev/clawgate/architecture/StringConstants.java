package dev.clawgate.architecture;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The string literals of one class file: the {@code CONSTANT_String} entries of its constant pool (JVMS 4.4), i.e.
 * every {@code "..."} the source wrote, constant-folded ones included. ArchUnit reads dependencies, not literals; the
 * JDK's class-file API is not final at Java 21, so this reads the pool by hand (40 lines, no library).
 */
final class StringConstants {
    private StringConstants() {}

    static List<String> of(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        Set<Integer> strings = new HashSet<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 8 -> strings.add(in.readUnsignedShort());
                case 7, 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> in.skipNBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
            }
        }
        List<String> out = new ArrayList<>();
        for (int index : strings) out.add(utf8[index]);
        return out;
    }
}

package dev.clawgate.core.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * How an embedding is kept (SPEC ME-5): float32, little-endian, scaled to unit length so cosine similarity is a dot
 * product. The same bytes in a SQLite BLOB and a PostgreSQL {@code bytea}.
 */
public final class Vectors {
    private Vectors() {}

    /** {@code v} scaled to unit length; a zero vector stays zero. */
    public static float[] unit(float[] v) {
        double norm = 0;
        for (float x : v) norm += (double) x * x;
        norm = Math.sqrt(norm);
        float[] out = new float[v.length];
        if (norm == 0) return out;
        for (int i = 0; i < v.length; i++) out[i] = (float) (v[i] / norm);
        return out;
    }

    public static byte[] toBytes(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    public static float[] fromBytes(byte[] bytes) {
        if (bytes.length % Float.BYTES != 0)
            throw new IllegalArgumentException("a stored vector is a whole number of float32s, got " + bytes.length);
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    /** The dot product of unit vector {@code a} and the unit vector stored as {@code b}: their cosine similarity. */
    public static double dot(float[] a, byte[] b) {
        if (b.length != a.length * Float.BYTES) return Double.NaN;
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        double sum = 0;
        for (int i = 0; i < a.length; i++) sum += a[i] * buf.getFloat(i * Float.BYTES);
        return sum;
    }

    public static double dot(float[] a, float[] b) {
        if (a.length != b.length) return Double.NaN;
        double sum = 0;
        for (int i = 0; i < a.length; i++) sum += a[i] * b[i];
        return sum;
    }
}

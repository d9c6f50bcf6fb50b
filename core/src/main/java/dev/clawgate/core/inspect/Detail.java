package dev.clawgate.core.inspect;

/**
 * A phase's detail as one compact JSON object, built by appending (SPEC OP-8): no maps, no reflection, so recording a
 * turn stays cheap. Strings are cut to {@link #MAX_STRING} characters; the inspector keeps sizes, not contents.
 */
public final class Detail {
    /** Longest string value kept; the rest is replaced by an ellipsis. */
    public static final int MAX_STRING = 200;

    private final StringBuilder sb = new StringBuilder(64).append('{');

    private Detail() {}

    public static Detail of() {
        return new Detail();
    }

    public Detail put(String key, String value) {
        key(key);
        if (value == null) {
            sb.append("null");
        } else {
            PhaseJson.quote(sb, value.length() > MAX_STRING ? value.substring(0, MAX_STRING) + "…" : value);
        }
        return this;
    }

    public Detail put(String key, long value) {
        key(key).append(value);
        return this;
    }

    public Detail put(String key, double value) {
        key(key).append(Double.isFinite(value) ? Math.round(value * 1000) / 1000.0 : 0);
        return this;
    }

    public Detail put(String key, boolean value) {
        key(key).append(value);
        return this;
    }

    /** {@code json} must be a JSON value this class or {@link #list} built. */
    public Detail raw(String key, String json) {
        key(key).append(json);
        return this;
    }

    /** A JSON array of the given objects' texts. */
    public static String list(Iterable<Detail> items) {
        StringBuilder out = new StringBuilder().append('[');
        for (Detail d : items) {
            if (out.length() > 1) out.append(',');
            out.append(d);
        }
        return out.append(']').toString();
    }

    private StringBuilder key(String key) {
        if (sb.length() > 1) sb.append(',');
        return PhaseJson.quote(sb, key).append(':');
    }

    @Override
    public String toString() {
        return sb + "}";
    }
}

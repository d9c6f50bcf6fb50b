package dev.clawgate.core.internal.toolcall;

import java.util.HashMap;
import java.util.Map;

/**
 * Case-insensitive literal search over one growing text, remembering what each needle's last search saw, so that the
 * many searches a scan makes (one per opener) cost linear time in total: a search that found nothing up to the end is
 * not repeated over the same characters, and a search from a position before the last hit returns that hit at once.
 * {@link #steps} counts the characters compared, which is how the tests show the scanner's work is linear.
 */
final class Finder {
    private record Memo(int from, int hit, int scannedTo) {}

    private final Map<String, Memo> memo = new HashMap<>();
    private CharSequence text;
    private long steps;

    Finder(CharSequence text) {
        this.text = text;
    }

    /** The text grew or was replaced by a longer one with the same prefix; memos stay valid. */
    void reset(CharSequence grown) {
        this.text = grown;
    }

    /** The text lost its first {@code n} characters (a stream dropped what it decided); memos shift. */
    void dropPrefix(CharSequence shorter, int n) {
        this.text = shorter;
        Map<String, Memo> shifted = new HashMap<>();
        memo.forEach((k, m) -> {
            if (m.from() >= n)
                shifted.put(k, new Memo(m.from() - n, m.hit() < 0 ? -1 : m.hit() - n, m.scannedTo() - n));
        });
        memo.clear();
        memo.putAll(shifted);
    }

    long steps() {
        return steps;
    }

    void count(long n) {
        steps += n;
    }

    /** The first index at or after {@code from} where {@code needle} (lower case) starts, ignoring case; -1 if none. */
    int find(String needle, int from) {
        int len = text.length();
        Memo m = memo.get(needle);
        int start = from;
        if (m != null && from >= m.from()) {
            if (m.hit() >= 0 && from <= m.hit()) return m.hit();
            if (m.hit() < 0) start = Math.max(from, m.scannedTo() - needle.length() + 1);
        }
        int hit = -1;
        int i = Math.max(start, 0);
        for (; i + needle.length() <= len; i++) {
            steps++;
            if (matchesAt(needle, i)) {
                hit = i;
                break;
            }
        }
        memo.put(needle, new Memo(from, hit, hit >= 0 ? hit : len));
        return hit;
    }

    /** Whether {@code needle} (lower case) occurs at {@code at}, ignoring case. */
    boolean matchesAt(String needle, int at) {
        if (at < 0 || at + needle.length() > text.length()) return false;
        for (int k = 0; k < needle.length(); k++) {
            char c = text.charAt(at + k);
            char n = needle.charAt(k);
            if (c != n && Character.toLowerCase(c) != n) return false;
        }
        return true;
    }
}

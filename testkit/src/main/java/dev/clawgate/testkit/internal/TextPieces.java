package dev.clawgate.testkit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How the fake model servers cut a scripted text into streamed deltas. */
public final class TextPieces {
    private static final Pattern WORD = Pattern.compile("\\s*\\S+\\s*$|\\s*\\S+");

    private TextPieces() {}

    /** {@code n} nearly equal pieces, never splitting a code point, or one piece per word when {@code n} is 0. */
    public static List<String> split(String text, int n) {
        List<String> pieces = new ArrayList<>();
        if (text.isEmpty()) return pieces;
        if (n <= 0) {
            Matcher m = WORD.matcher(text);
            int end = 0;
            while (m.find()) {
                pieces.add(text.substring(end, m.end()));
                end = m.end();
            }
            if (end < text.length()) pieces.add(text.substring(end));
            return pieces;
        }
        int[] cps = text.codePoints().toArray();
        int count = Math.min(n, cps.length);
        for (int i = 0; i < count; i++) {
            int from = (int) ((long) cps.length * i / count);
            int to = (int) ((long) cps.length * (i + 1) / count);
            pieces.add(new String(cps, from, to - from));
        }
        return pieces;
    }
}

package dev.clawgate.core.internal.sanitize;

import java.util.Locale;

/**
 * The streaming half of {@link ReplySanitizer#stripToolSummaryPrefix} and {@link ReplySanitizer#stripNarration}: holds
 * the start of a reply until its first line that is neither blank nor narration, then drops what came before it and
 * passes the rest through.
 */
final class LeadingStream {
    private static final String SUMMARY = "[used tools:";

    private final StringBuilder buf = new StringBuilder();
    private boolean leading = true;
    private boolean prefixDone;
    private boolean dropped;
    private int scan;

    String push(String text) {
        if (!leading) return text;
        buf.append(text);
        return resolve(false);
    }

    String finish() {
        if (!leading) return "";
        return resolve(true);
    }

    private String resolve(boolean eof) {
        if (!prefixDone && !summaryPrefix(eof)) return "";
        while (true) {
            int nl = buf.indexOf("\n", scan);
            boolean complete = nl >= 0 || eof;
            String line = nl >= 0 ? buf.substring(scan, nl) : buf.substring(scan);
            if (line.isBlank() && nl >= 0) {
                scan = nl + 1;
                continue;
            }
            Narration.Verdict v = line.isBlank() ? Narration.Verdict.UNDECIDED : Narration.verdict(line, complete);
            if (v == Narration.Verdict.NO) {
                String rest = buf.substring(scan);
                return release(dropped || scan > 0 ? rest.stripLeading() : rest);
            }
            if (v == Narration.Verdict.YES && nl >= 0) {
                scan = nl + 1;
                continue;
            }
            if (!eof) return "";
            // the reply so far is only narration and blank lines: keep it rather than send nothing
            return release(buf.toString().strip());
        }
    }

    /** Removes an echoed {@code [Used tools: ...]} prefix; false while the start cannot be decided yet. */
    private boolean summaryPrefix(boolean eof) {
        String lead = buf.toString().stripLeading();
        String lower = lead.toLowerCase(Locale.ROOT);
        if (lead.isEmpty() || SUMMARY.startsWith(lower)) {
            if (!eof) return false;
            prefixDone = true;
            return true;
        }
        if (!lower.startsWith(SUMMARY)) {
            prefixDone = true;
            return true;
        }
        int close = lead.indexOf(']');
        int nl = lead.indexOf('\n');
        if (close >= 0 && (nl < 0 || close < nl)) {
            buf.setLength(0);
            buf.append(lead.substring(close + 1));
            prefixDone = true;
            dropped = true;
            return true;
        }
        if (nl >= 0 || eof) {
            prefixDone = true;
            return true;
        }
        return false;
    }

    private String release(String text) {
        leading = false;
        return text;
    }
}

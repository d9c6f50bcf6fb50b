package dev.clawgate.core.internal.sanitize;

import java.util.List;
import java.util.Locale;

/** Tool narration: a leading line where the model announces what it is about to do (SPEC RP-2). */
final class Narration {
    /** Whether a (possibly incomplete) line is narration. */
    enum Verdict {
        YES,
        NO,
        UNDECIDED
    }

    private static final List<String> PREFIXES = List.of(
            "let me ",
            "i'll ",
            "i will ",
            "i am going to ",
            "i'm going to ",
            "searching ",
            "looking up ",
            "fetching ",
            "checking ",
            "using the ",
            "using my ",
            "one moment",
            "hold on",
            "just a moment",
            "give me a moment",
            "allow me to ");
    /** Openings that share a prefix with narration but address the user. */
    private static final List<String> NOT_NARRATION = List.of("let me know");

    private Narration() {}

    static boolean isNarration(String line) {
        return verdict(line, true) == Verdict.YES;
    }

    /**
     * YES or NO once the line's start decides it; UNDECIDED while an incomplete line could still go either way. A
     * complete line is never UNDECIDED.
     */
    static Verdict verdict(String line, boolean complete) {
        String t = line.strip().toLowerCase(Locale.ROOT).replace('\u2019', '\'');
        boolean undecided = false;
        for (String e : NOT_NARRATION) {
            if (t.startsWith(e)) return Verdict.NO;
            if (e.startsWith(t)) undecided = true;
        }
        for (String p : PREFIXES) {
            if (t.startsWith(p)) return undecided && !complete ? Verdict.UNDECIDED : Verdict.YES;
            if (p.startsWith(t)) undecided = true;
        }
        return undecided && !complete ? Verdict.UNDECIDED : Verdict.NO;
    }
}

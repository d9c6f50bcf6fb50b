package dev.clawgate.core.render;

import java.util.Random;

/** Random markdown replies for property tests: prose in several scripts, emoji, code fences, tables, long words. */
final class ReplyTexts {
    static final String FAMILY = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67\u200D\uD83D\uDC66";
    private static final String[] WORDS = {
        "the",
        "gateway",
        "sends",
        "a",
        "reply",
        "to",
        "Telegram",
        "and",
        "Discord",
        "x",
        "chunk",
        "limit",
        "caf\u00e9",
        "na\u00efve",
        "e\u0301t\u0301e\u0301",
        "n\u0303o",
        "\u0915\u094d\u0937",
        "\u4e2d\u6587\u5b57",
        "\u65e5\u672c\u8a9e\u306e\u6587",
        "\uD83D\uDE00",
        FAMILY,
        "\uD83C\uDDE9\uD83C\uDDEA",
        "\uD83D\uDC4D\uD83C\uDFFD",
        "\uD83C\uDFF3\uFE0F\u200D\uD83C\uDF08",
        "3.14",
        "e.g.",
        "(ok)",
        "\"quoted\"",
        "https://example.com/a?b=c",
        "`code`",
        "**bold**",
        "|pipe|"
    };
    private static final String[] ENDS = {". ", "! ", "? ", "\u3002", "\u2026 ", ".\" ", "; ", ", "};
    private static final String[] FENCES = {"```", "```", "~~~", "````"};
    private static final String[] LANGS = {"", "python", "js", "c++", "sh", "json"};
    private static final String[] CODE = {
        "print(x)",
        "return a + b;",
        "if (x) {",
        "}",
        "let s = \"a b\";",
        "SELECT * FROM t;",
        "\u4e2d = 1",
        "# comment \uD83D\uDE00",
        "x=1",
        "for i in range(10): pass"
    };

    private ReplyTexts() {}

    static String reply(Random r) {
        return reply(r, true);
    }

    /** A reply; its last code block may be left unclosed only if {@code unclosedFence}. */
    static String reply(Random r, boolean unclosedFence) {
        StringBuilder sb = new StringBuilder();
        int blocks = 1 + r.nextInt(8);
        int previous = -1;
        for (int b = 0; b < blocks; b++) {
            int kind = r.nextInt(10);
            // a fence opens and closes on a line of its own
            boolean fence = kind < 2 || previous < 2;
            if (b > 0) sb.append(fence ? pick(r, "\n", "\n\n") : pick(r, "\n\n", "\n\n", "\n", " ", "\n\n\n", "\n \n"));
            previous = kind;
            switch (kind) {
                case 0, 1 -> code(r, sb, unclosedFence && b == blocks - 1 && r.nextInt(4) == 0);
                case 2, 3 -> table(r, sb);
                case 4 -> sb.append(longWord(r));
                case 5 -> sb.append("\u4eca\u65e5\u306f\u6674\u308c\u3067\u3059\u3002".repeat(1 + r.nextInt(12)));
                default -> prose(r, sb);
            }
        }
        if (r.nextInt(5) == 0) sb.insert(0, pick(r, " ", "\n", "\n\n  "));
        if (r.nextInt(5) == 0) sb.append(pick(r, " ", "\n", "\n\n"));
        return sb.toString();
    }

    private static void prose(Random r, StringBuilder sb) {
        int sentences = 1 + r.nextInt(6);
        for (int s = 0; s < sentences; s++) {
            int words = 1 + r.nextInt(14);
            for (int w = 0; w < words; w++) {
                if (w > 0) sb.append(r.nextInt(15) == 0 ? "\n" : " ");
                sb.append(r.nextInt(20) == 0 ? longWord(r) : WORDS[r.nextInt(WORDS.length)]);
            }
            sb.append(ENDS[r.nextInt(ENDS.length)]);
        }
        trimEnd(sb);
    }

    private static void code(Random r, StringBuilder sb, boolean unclosed) {
        String fence = FENCES[r.nextInt(FENCES.length)];
        String lang = LANGS[r.nextInt(LANGS.length)];
        sb.append(fence).append(lang).append('\n');
        int lines = 1 + r.nextInt(12);
        for (int i = 0; i < lines; i++) {
            sb.append("    ".repeat(r.nextInt(3)));
            if (fence.length() == 4 && r.nextInt(6) == 0) sb.append("```inner");
            else sb.append(r.nextInt(12) == 0 ? longWord(r) : CODE[r.nextInt(CODE.length)]);
            sb.append('\n');
            if (r.nextInt(8) == 0) sb.append('\n');
        }
        if (!unclosed) sb.append(fence);
        else trimEnd(sb);
    }

    private static void table(Random r, StringBuilder sb) {
        int cols = 1 + r.nextInt(4);
        StringBuilder header = new StringBuilder("|");
        StringBuilder sep = new StringBuilder("|");
        for (int c = 0; c < cols; c++) {
            header.append(' ').append(WORDS[r.nextInt(12)]).append(" |");
            sep.append(pick(r, "---", ":---", "---:", ":-:")).append('|');
        }
        sb.append(header).append('\n').append(sep);
        int rows = r.nextInt(7);
        for (int i = 0; i < rows; i++) {
            sb.append("\n|");
            for (int c = 0; c < cols; c++)
                sb.append(' ').append(WORDS[r.nextInt(WORDS.length)]).append(" |");
        }
    }

    static String longWord(Random r) {
        StringBuilder w = new StringBuilder();
        int n = 15 + r.nextInt(150);
        for (int i = 0; i < n; i++) w.append((char) ('a' + r.nextInt(26)));
        return w.toString();
    }

    private static void trimEnd(StringBuilder sb) {
        while (!sb.isEmpty() && Character.isWhitespace(sb.charAt(sb.length() - 1))) sb.setLength(sb.length() - 1);
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }
}

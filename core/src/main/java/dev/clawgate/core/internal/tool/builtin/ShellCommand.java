package dev.clawgate.core.internal.tool.builtin;

import java.util.ArrayList;
import java.util.List;

/**
 * A command line split into words the way a shell would quote them, without anything else a shell does (SPEC AG-5): no
 * pipes, lists, redirections, substitutions or expansion. Those characters are refused outside quotes, so the first
 * word is the program that actually runs.
 *
 * <p>Rules: blanks separate words; {@code '...'} is literal; inside {@code "..."} a backslash escapes only {@code "}
 * and {@code \}; outside quotes a backslash makes the next character literal. Adjacent parts join into one word.
 *
 * @param argv the program followed by its arguments; never empty
 */
record ShellCommand(List<String> argv) {
    /** Characters a shell gives meaning to that could run or chain another program, or redirect. */
    static final String METACHARACTERS = ";&|$`><()";

    public ShellCommand {
        argv = List.copyOf(argv);
        if (argv.isEmpty() || argv.getFirst().isEmpty()) throw new IllegalArgumentException("no program");
    }

    public String program() {
        return argv.getFirst();
    }

    public static ShellCommand parse(String line) throws RefusedException {
        if (line == null || line.isBlank()) throw new RefusedException("command is empty");
        if (line.indexOf('\0') >= 0) throw new RefusedException("command contains a null byte");
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '\'') {
                int close = line.indexOf('\'', i + 1);
                if (close < 0) throw new RefusedException("unterminated single quote");
                word.append(line, i + 1, close);
                inWord = true;
                i = close + 1;
            } else if (c == '"') {
                i = doubleQuoted(line, i + 1, word);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 >= n) throw new RefusedException("command ends with a backslash");
                char next = line.charAt(i + 1);
                if (next == '\n' || next == '\r') throw new RefusedException("newlines are not allowed outside quotes");
                word.append(next);
                inWord = true;
                i += 2;
            } else if (c == '\n' || c == '\r') {
                throw new RefusedException("newlines are not allowed outside quotes (one command per call)");
            } else if (METACHARACTERS.indexOf(c) >= 0) {
                throw new RefusedException(
                        "shell operator '" + c + "' is not allowed: one plain command per call, no pipes,"
                                + " redirections or substitutions (quote it if it is meant literally)");
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) words.add(word.toString());
        if (words.isEmpty() || words.getFirst().isEmpty()) throw new RefusedException("command names no program");
        return new ShellCommand(words);
    }

    /** Appends a double-quoted part starting after its opening quote; returns the index after the closing one. */
    private static int doubleQuoted(String line, int from, StringBuilder word) throws RefusedException {
        int i = from;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') return i + 1;
            if (c == '\\' && i + 1 < line.length() && (line.charAt(i + 1) == '"' || line.charAt(i + 1) == '\\')) {
                word.append(line.charAt(i + 1));
                i += 2;
            } else {
                word.append(c);
                i++;
            }
        }
        throw new RefusedException("unterminated double quote");
    }
}

package dev.clawgate.server.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Finds the known key an unknown one was probably meant to be, by edit distance. */
final class NearestKey {
    private NearestKey() {}

    /**
     * The best guess for an unknown key, as a full path to show the user.
     *
     * @param typed the unknown key as written (one segment, e.g. {@code max_tool_iteration})
     * @param displayPrefix how the enclosing table is shown, e.g. {@code providers.openai}, {@code routes[0]}, or empty
     * @param schemaPrefix the enclosing table in {@link ConfigSchema#knownPaths()} form, e.g. {@code providers.<name>}
     * @param siblings the keys valid in the enclosing table
     * @param knownPaths every path of the schema, as {@link ConfigSchema#knownPaths(ConfigSchema.Table)} lists them
     */
    static Optional<String> suggest(
            String typed,
            String displayPrefix,
            String schemaPrefix,
            Collection<String> siblings,
            Collection<String> knownPaths) {
        String best = null;
        int bestScore = Integer.MAX_VALUE;
        for (String sibling : siblings) {
            int d = closeness(typed, sibling);
            if (d < bestScore) {
                bestScore = d;
                best = join(displayPrefix, sibling);
            }
        }
        // Elsewhere in the schema: the key may sit in the wrong table (agent.bind) or be mis-nested
        // (messages.queue_mode).
        String typedPath = join(schemaPrefix, typed);
        for (String known : knownPaths) {
            if (parentOf(known).equals(schemaPrefix) || typedPath.startsWith(known + ".")) continue;
            int d = Math.min(pathCloseness(typedPath, known), closeness(typed, leafOf(known)));
            if (d < bestScore) {
                bestScore = d;
                best = known;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Edit distance when the two are close enough to suggest, else {@link Integer#MAX_VALUE}. */
    static int closeness(String typed, String known) {
        String a = normalise(typed);
        String b = normalise(known);
        int d = editDistance(a, b);
        int allowed = Math.max(1, Math.min(3, a.length() / 3));
        boolean prefix = Math.min(a.length(), b.length()) >= 4 && (a.startsWith(b) || b.startsWith(a));
        return d <= allowed || prefix ? d : Integer.MAX_VALUE;
    }

    /** Like {@link #closeness} for whole paths, where sharing a prefix says nothing (history.x vs history). */
    private static int pathCloseness(String typed, String known) {
        int d = editDistance(normalise(typed), normalise(known));
        return d <= Math.max(1, Math.min(3, typed.length() / 3)) ? d : Integer.MAX_VALUE;
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1. */
    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }

    private static String normalise(String key) {
        return key.toLowerCase(Locale.ROOT).replace('-', '_');
    }

    private static String join(String prefix, String key) {
        return prefix.isEmpty() ? key : prefix + "." + key;
    }

    private static String parentOf(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(0, dot);
    }

    private static String leafOf(String path) {
        return path.substring(path.lastIndexOf('.') + 1);
    }
}

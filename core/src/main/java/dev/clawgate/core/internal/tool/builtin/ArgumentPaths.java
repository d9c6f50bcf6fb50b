package dev.clawgate.core.internal.tool.builtin;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The shell tool's argument check (SPEC AG-5), defence in depth behind the sandbox (AG-8): any word that may name a
 * file must name one inside the workspace. Every program has its own option grammar, so the check assumes the worst of
 * each word and checks, as a path:
 *
 * <ul>
 *   <li>the word itself (an operand, or a file name after {@code --});
 *   <li>every value after an {@code =} ({@code --output=F}, {@code of=F});
 *   <li>in a cluster of short options ({@code -abF}), every tail after its first letter, since any letter may take the
 *       rest of the word as its value ({@code -oF}, {@code -tDIR}, {@code -ufF}).
 * </ul>
 *
 * A value is refused when it is absolute, starts with {@code ~}, has a {@code ..} segment, or leads out of the
 * workspace through a symbolic link (checked on the path, or its nearest existing parent, by {@link WorkspacePaths}). A
 * harmless option may be refused with it ({@code -t/} as a separator); the model is told why and can say it another
 * way.
 */
final class ArgumentPaths {
    private ArgumentPaths() {}

    /** Checks every argument after the program. */
    static void check(List<String> argv, Path ws) throws RefusedException {
        for (String arg : argv.subList(1, argv.size())) {
            for (String value : candidates(arg)) check(arg, value, ws);
        }
    }

    /** Every string {@code arg} may hand a program as a path. */
    static Set<String> candidates(String arg) {
        Set<String> out = new LinkedHashSet<>();
        out.add(arg);
        for (int i = arg.indexOf('='); i >= 0; i = arg.indexOf('=', i + 1)) out.add(arg.substring(i + 1));
        if (arg.startsWith("-") && !arg.startsWith("--")) {
            for (int i = 2; i < arg.length(); i++) out.add(arg.substring(i));
        }
        out.remove("");
        return out;
    }

    private static void check(String arg, String value, Path ws) throws RefusedException {
        if (value.startsWith("/") || value.startsWith("~") || hasParentSegment(value)) {
            String which = value.equals(arg) ? "" : "its value '" + value + "' ";
            throw new RefusedException("argument '" + arg + "' points outside the workspace (" + which
                    + "is not a path inside it); use paths relative to it");
        }
        try {
            Path.of(value);
        } catch (InvalidPathException e) {
            throw new RefusedException("argument '" + arg + "' is not a valid path");
        }
        try {
            WorkspacePaths.resolve(ws, value);
        } catch (RefusedException e) {
            throw new RefusedException("argument '" + arg + "': " + e.getMessage());
        }
    }

    private static boolean hasParentSegment(String value) {
        for (String part : value.split("[/\\\\]")) {
            if (part.equals("..")) return true;
        }
        return false;
    }
}

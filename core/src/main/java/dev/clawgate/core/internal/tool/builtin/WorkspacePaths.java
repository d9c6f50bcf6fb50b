package dev.clawgate.core.internal.tool.builtin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Confines a path given by the model to the workspace (SPEC AG-5): no {@code ..}, no absolute path outside it, no
 * symbolic link that leads out of it, and no file with more than one name (a hard link): its other name may lie
 * outside, and nothing on the link tells where.
 */
public final class WorkspacePaths {
    private WorkspacePaths() {}

    /**
     * The absolute, normalised path {@code userPath} names inside {@code workspace}.
     *
     * @throws RefusedException if the path is empty, malformed, contains {@code ..}, lies (lexically or through a
     *     symbolic link) outside the workspace, or names a regular file with more than one hard link
     */
    public static Path resolve(Path workspace, String userPath) throws RefusedException {
        if (userPath == null || userPath.isBlank()) throw new RefusedException("path is empty");
        if (userPath.indexOf('\0') >= 0) throw new RefusedException("path contains a null byte");
        Path ws = workspace.toAbsolutePath().normalize();
        Path wsReal;
        try {
            wsReal = ws.toRealPath();
        } catch (IOException e) {
            throw new RefusedException("the workspace directory does not exist");
        }
        Path given;
        try {
            given = Path.of(userPath);
        } catch (InvalidPathException e) {
            throw new RefusedException("not a valid path: " + userPath);
        }
        for (Path part : given) {
            if (part.toString().equals("..")) throw new RefusedException("path may not contain '..': " + userPath);
        }
        Path candidate;
        if (given.isAbsolute()) {
            Path abs = given.normalize();
            if (abs.startsWith(ws)) candidate = abs;
            // the model may have seen the workspace's real path (e.g. in a listing or an error)
            else if (abs.startsWith(wsReal))
                candidate = ws.resolve(wsReal.relativize(abs)).normalize();
            else throw new RefusedException("path is outside the workspace: " + userPath);
        } else {
            candidate = ws.resolve(given).normalize();
        }
        if (!candidate.startsWith(ws)) throw new RefusedException("path is outside the workspace: " + userPath);
        checkNoLinkEscape(candidate, ws, wsReal, userPath);
        checkSingleName(candidate, userPath);
        return candidate;
    }

    /**
     * A hard link is the file itself under a second name: a link made before the gateway ran (the sandbox lets no
     * command make one to a file outside) could name the config file or any file of the gateway's user. Reading it
     * would leak that file, appending would change it. A directory always has several links and is not a file's second
     * name.
     */
    private static void checkSingleName(Path candidate, String userPath) throws RefusedException {
        if (!Files.isRegularFile(candidate)) return;
        int names;
        try {
            names = (Integer) Files.getAttribute(candidate, "unix:nlink");
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return; // a file system without link counts cannot say, and has no hard links to tell apart
        } catch (IOException e) {
            throw new RefusedException(
                    "cannot check path " + userPath + ": " + e.getClass().getSimpleName());
        }
        if (names > 1) {
            throw new RefusedException("path is a file with " + names + " hard links, one of which may lie outside"
                    + " the workspace: " + userPath);
        }
    }

    /** The real path of the nearest existing ancestor (or the file itself) must lie in the real workspace. */
    private static void checkNoLinkEscape(Path candidate, Path ws, Path wsReal, String userPath)
            throws RefusedException {
        for (Path p = candidate; p != null && p.startsWith(ws); p = p.getParent()) {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) continue;
            if (Files.isSymbolicLink(p) && !Files.exists(p)) {
                // a dangling link could be written through to a place we cannot check
                throw new RefusedException("path goes through a broken symbolic link: " + userPath);
            }
            Path real;
            try {
                real = p.toRealPath();
            } catch (IOException e) {
                throw new RefusedException(
                        "cannot check path " + userPath + ": " + e.getClass().getSimpleName());
            }
            if (!real.startsWith(wsReal)) {
                throw new RefusedException("path leads outside the workspace through a symbolic link: " + userPath);
            }
            return;
        }
        throw new RefusedException("path is outside the workspace: " + userPath);
    }
}

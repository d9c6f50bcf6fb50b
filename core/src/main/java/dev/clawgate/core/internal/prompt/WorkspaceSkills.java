package dev.clawgate.core.internal.prompt;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skills in the workspace, for the Skills section (SPEC SP-1): each {@code skills/<dir>/SKILL.md}. Its name and
 * description come from a front matter block ({@code ---}, {@code name:}, {@code description:}, {@code ---}); without
 * one, the name is the directory's and the description the first line of text. The description's first line is what
 * compact mode shows; the rest of the file follows it in full mode. Read when a session's prompt is built (SPEC SP-2:
 * fresh skills). Bounded: at most {@link #MAX_SKILLS} skills of {@link #MAX_CHARS} characters each.
 */
public final class WorkspaceSkills {
    public static final String DIRECTORY = "skills";
    public static final String FILE = "SKILL.md";
    static final int MAX_SKILLS = 64;
    static final int MAX_CHARS = 8_000;
    private static final Logger LOG = LoggerFactory.getLogger(WorkspaceSkills.class);

    private WorkspaceSkills() {}

    /** The skills under {@code workspace}, by directory name; none when there is no skills directory. */
    public static List<Skill> read(Path workspace) {
        Path root = workspace.resolve(DIRECTORY);
        List<Skill> skills = new ArrayList<>();
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) return skills;
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path d : entries) if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) dirs.add(d);
        } catch (IOException e) {
            LOG.warn("skills directory {} could not be listed: {}", root, e.toString());
            return skills;
        }
        dirs.sort(null);
        if (dirs.size() > MAX_SKILLS) {
            LOG.warn(
                    "{} skills in {}; only the first {} by name are shown to the model", dirs.size(), root, MAX_SKILLS);
            dirs = dirs.subList(0, MAX_SKILLS);
        }
        for (Path dir : dirs) {
            Path file = dir.resolve(FILE);
            // a symbolic link could lead out of the workspace
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) continue;
            try {
                Skill s = parse(dir.getFileName().toString(), readHead(file));
                if (s != null) skills.add(s);
            } catch (IOException e) {
                LOG.warn("skill {} could not be read: {}", file, e.toString());
            }
        }
        return skills;
    }

    /** A skill from a SKILL.md text; null when it says nothing. */
    static Skill parse(String dirName, String text) {
        String name = dirName;
        String description = null;
        String body = text.replace("\r\n", "\n").strip();
        if (body.startsWith("---\n")) {
            int end = body.indexOf("\n---", 4);
            if (end > 0) {
                for (String line : body.substring(4, end).split("\n")) {
                    int colon = line.indexOf(':');
                    if (colon < 0) continue;
                    String key = line.substring(0, colon).strip();
                    String value = unquote(line.substring(colon + 1).strip());
                    if (key.equals("name") && !value.isEmpty()) name = value;
                    if (key.equals("description") && !value.isEmpty()) description = value;
                }
                int after = body.indexOf('\n', end + 1);
                body = after < 0 ? "" : body.substring(after + 1).strip();
            }
        }
        if (description == null) {
            // the first line of prose stands for the description (and leaves the body); headings are skipped
            List<String> lines = new ArrayList<>(List.of(body.split("\n")));
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i).strip();
                if (!l.isEmpty() && !l.startsWith("#")) {
                    description = l;
                    lines.remove(i);
                    body = String.join("\n", lines).strip();
                    break;
                }
            }
        }
        if (description == null && body.isEmpty()) return null;
        String full = description == null ? body : body.isEmpty() ? description : description + "\n" + body;
        return new Skill(name, full, DIRECTORY + "/" + dirName + "/" + FILE);
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    private static String readHead(Path file) throws IOException {
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try (Reader r = new java.io.InputStreamReader(Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS), decoder)) {
            char[] buf = new char[MAX_CHARS + 1];
            int n = 0;
            int got;
            while (n < buf.length && (got = r.read(buf, n, buf.length - n)) != -1) n += got;
            String text = new String(buf, 0, Math.min(n, MAX_CHARS));
            return n > MAX_CHARS
                    ? text + "\n[... cut at " + MAX_CHARS + " characters; read " + file.getFileName() + " for the rest]"
                    : text;
        }
    }
}

package dev.clawgate.core.prompt;

import dev.clawgate.core.internal.tool.builtin.RefusedException;
import dev.clawgate.core.internal.tool.builtin.WorkspacePaths;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The workspace files that shape the agent, read for the Project Context section (SPEC SP-1). */
final class BootstrapFiles {
    static final List<String> NAMES = List.of("IDENTITY.md", "SOUL.md", "USER.md", "AGENTS.md");
    static final int MAX_CHARS = 20_000;
    private static final Logger LOG = LoggerFactory.getLogger(BootstrapFiles.class);

    private BootstrapFiles() {}

    /** A bootstrap file's name and its (possibly cut) text. */
    record Loaded(String name, String text, boolean cut) {}

    /** The files present, in SP-1's order; blank ones and ones that lead outside the workspace are skipped. */
    static List<Loaded> read(Path workspace) {
        List<Loaded> loaded = new ArrayList<>();
        if (!Files.isDirectory(workspace)) return loaded;
        for (String name : NAMES) {
            try {
                Path file = WorkspacePaths.resolve(workspace, name);
                if (!Files.isRegularFile(file)) continue;
                Loaded l = readHead(name, file);
                if (!l.text().isBlank()) loaded.add(l);
            } catch (RefusedException e) {
                LOG.warn("bootstrap file {} skipped: {}", name, e.getMessage());
            } catch (IOException e) {
                LOG.warn("bootstrap file {} could not be read: {}", name, e.toString());
            }
        }
        return loaded;
    }

    /** Reads at most MAX_CHARS characters, and one more to learn whether the file was cut. */
    private static Loaded readHead(String name, Path file) throws IOException {
        // an operator's file with a stray bad byte should still load, not vanish
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try (Reader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder))) {
            char[] buf = new char[MAX_CHARS + 1];
            int n = 0;
            int got;
            while (n < buf.length && (got = r.read(buf, n, buf.length - n)) != -1) n += got;
            boolean cut = n > MAX_CHARS;
            int keep = Math.min(n, MAX_CHARS);
            if (cut && Character.isHighSurrogate(buf[keep - 1])) keep--;
            return new Loaded(name, new String(buf, 0, keep), cut);
        }
    }
}

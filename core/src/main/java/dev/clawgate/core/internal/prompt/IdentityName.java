package dev.clawgate.core.internal.prompt;

import dev.clawgate.core.internal.tool.builtin.RefusedException;
import dev.clawgate.core.internal.tool.builtin.WorkspacePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's name, for the {@code {identity.name}} prefix variable (SPEC OUT-3): the {@code Name:} line of the
 * workspace's {@code IDENTITY.md} (SP-1), markdown emphasis removed, e.g. {@code - **Name:** Claw}.
 */
public final class IdentityName {
    private static final Logger log = LoggerFactory.getLogger(IdentityName.class);
    private static final Pattern NAME = Pattern.compile("(?im)^[\\s>*_-]*name[*_]*\\s*:[*_]*\\s*(.+?)\\s*$");
    private static final int MAX_READ = 8_192;

    private IdentityName() {}

    /** The name, or null when there is no IDENTITY.md or it names none. */
    public static String read(Path workspace) {
        if (workspace == null || !Files.isDirectory(workspace)) return null;
        try {
            Path file = WorkspacePaths.resolve(workspace, "IDENTITY.md");
            if (!Files.isRegularFile(file)) return null;
            return parse(new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8));
        } catch (RefusedException | IOException e) {
            log.debug("IDENTITY.md not read for the identity name: {}", e.getMessage());
            return null;
        }
    }

    static String parse(String text) {
        Matcher m = NAME.matcher(text.length() > MAX_READ ? text.substring(0, MAX_READ) : text);
        if (!m.find()) return null;
        String name = m.group(1).replaceAll("[*_`]", "").strip();
        return name.isEmpty() ? null : name;
    }
}

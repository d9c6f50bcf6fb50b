package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileListToolTest {
    @TempDir
    Path root;

    Path ws;
    Path outside;
    final FileListTool tool = new FileListTool(8_000);

    @BeforeEach
    void layout() throws Exception {
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "TOP SECRET");
        Files.createDirectories(ws.resolve("src/main/deep"));
        Files.writeString(ws.resolve("README.md"), "r");
        Files.writeString(ws.resolve("src/a.txt"), "a");
        Files.writeString(ws.resolve("src/main/deep/x.txt"), "x");
    }

    private ToolResult list(Object... a) throws Exception {
        return tool.execute(args(a), context(ws));
    }

    // SPEC AG-5
    @Test
    void listsTheWorkspaceByDefaultWithDirectoriesMarked() throws Exception {
        assertThat(list().output()).isEqualTo("README.md\nsrc/");
        assertThat(list("path", "src").output()).isEqualTo("a.txt\nmain/");
    }

    // SPEC AG-5
    @Test
    void recursiveListingStopsAtTheDepth() throws Exception {
        assertThat(list("recursive", true, "max_depth", 4).output())
                .isEqualTo("README.md\nsrc/\nsrc/a.txt\nsrc/main/\nsrc/main/deep/\nsrc/main/deep/x.txt");
        assertThat(list("recursive", true).output()).isEqualTo("README.md\nsrc/\nsrc/a.txt\nsrc/main/\nsrc/main/deep/");
        assertThat(list("recursive", true, "max_depth", 2).output()).isEqualTo("README.md\nsrc/\nsrc/a.txt\nsrc/main/");
    }

    // SPEC AG-5, AG-3
    @Test
    void entryCapStopsTheListingWithANote() throws Exception {
        Files.createDirectories(ws.resolve("many"));
        for (int i = 0; i < 30; i++) Files.writeString(ws.resolve(String.format("many/f%02d", i)), "");
        ToolResult r = list("path", "many", "limit", 10);
        assertThat(r.output().lines().filter(l -> l.startsWith("f"))).hasSize(10);
        assertThat(r.output()).endsWith("[... listing stopped at 10 entries]");
    }

    // SPEC AG-3
    @Test
    void outputIsCutToTheResultBudget() throws Exception {
        for (int i = 0; i < 100; i++) Files.writeString(ws.resolve("many-" + "x".repeat(40) + i), "");
        ToolResult r = new FileListTool(500).execute(args("limit", 1000), context(ws));
        assertThat(r.output().length()).isLessThanOrEqualTo(500);
        assertThat(r.output()).contains("[... output cut at 500 characters");
    }

    // SPEC AG-5
    @Test
    void unicodeNamesAreListed() throws Exception {
        Files.createDirectories(ws.resolve("日本語"));
        Files.writeString(ws.resolve("日本語/naïve 😀.txt"), "");
        assertThat(list("path", "日本語").output()).isEqualTo("naïve 😀.txt");
    }

    // SPEC AG-5
    @Test
    void symlinksAreMarkedAndNeverFollowedOutOfTheWorkspace() throws Exception {
        Files.createSymbolicLink(ws.resolve("linkdir"), outside);
        Files.createSymbolicLink(ws.resolve("link.txt"), outside.resolve("secret.txt"));
        ToolResult all = list("recursive", true);
        assertThat(all.output()).contains("linkdir@", "link.txt@").doesNotContain("secret.txt");
        ToolResult through = list("path", "linkdir");
        assertThat(through.error()).isTrue();
        assertThat(through.output()).doesNotContain("secret.txt");
        assertThat(list("path", "../outside").error()).isTrue();
        assertThat(list("path", outside.toString()).error()).isTrue();
    }

    // SPEC AG-5
    @Test
    void emptyMissingAndFilePathsGetClearAnswers() throws Exception {
        Files.createDirectories(ws.resolve("empty"));
        assertThat(list("path", "empty").output()).isEqualTo("(empty directory)");
        assertThat(list("path", "nope").output()).isEqualTo("no such directory: nope");
        assertThat(list("path", "README.md").output()).contains("not a directory");
        assertThat(list("recursive", true, "max_depth", 99).output()).contains("between 1 and 10");
    }
}

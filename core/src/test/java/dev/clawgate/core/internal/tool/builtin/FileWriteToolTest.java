package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.tool.ToolResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileWriteToolTest {
    @TempDir
    Path root;

    Path ws;
    Path outside;
    final FileWriteTool tool = new FileWriteTool();

    @BeforeEach
    void layout() throws Exception {
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "TOP SECRET");
    }

    private ToolResult write(Object... a) throws Exception {
        return tool.execute(args(a), context(ws));
    }

    // SPEC AG-5
    @Test
    void writesAFileAndCreatesItsParentDirectories() throws Exception {
        ToolResult r = write("path", "a/b/c.txt", "content", "hello\n");
        assertThat(r).isEqualTo(ToolResult.ok("wrote 6 bytes to a/b/c.txt"));
        assertThat(Files.readString(ws.resolve("a/b/c.txt"))).isEqualTo("hello\n");
    }

    // SPEC AG-5
    @Test
    void createsTheWorkspaceItselfWhenMissing() throws Exception {
        Path fresh = root.resolve("fresh-ws");
        ToolResult r = tool.execute(args("path", "x.txt", "content", "x"), context(fresh));
        assertThat(r.error()).isFalse();
        assertThat(Files.readString(fresh.resolve("x.txt"))).isEqualTo("x");
    }

    // SPEC AG-5
    @Test
    void replacingIsAtomicLeavesNoTemporaryFileAndKeepsTheFileMode() throws Exception {
        Path f = ws.resolve("conf.txt");
        Files.writeString(f, "old content that is longer than the new one");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        assertThat(write("path", "conf.txt", "content", "new").error()).isFalse();
        assertThat(Files.readString(f)).isEqualTo("new");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                .isEqualTo("rw-------");
        try (Stream<Path> s = Files.list(ws)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("conf.txt");
        }
    }

    // SPEC AG-5
    @Test
    void appendAddsToTheEndAndCreatesAMissingFile() throws Exception {
        assertThat(write("path", "log.txt", "content", "one\n", "append", true).output())
                .isEqualTo("appended 4 bytes to log.txt");
        write("path", "log.txt", "content", "two\n", "append", true);
        assertThat(Files.readString(ws.resolve("log.txt"))).isEqualTo("one\ntwo\n");
    }

    // SPEC AG-5
    @Test
    void unicodeNamesAndContentAreStoredAsUtf8() throws Exception {
        write("path", "日本語/naïve 😀.txt", "content", "héllo 世界 😀");
        byte[] stored = Files.readAllBytes(ws.resolve("日本語").resolve("naïve 😀.txt"));
        assertThat(stored).isEqualTo("héllo 世界 😀".getBytes(StandardCharsets.UTF_8));
    }

    // SPEC AG-5
    @Test
    void dotDotAndAbsoluteOutsidePathsWriteNothing() throws Exception {
        assertThat(write("path", "../outside/pwned.txt", "content", "x").error())
                .isTrue();
        assertThat(write("path", outside.resolve("pwned2.txt").toString(), "content", "x")
                        .error())
                .isTrue();
        assertThat(write("path", "../outside/secret.txt", "content", "overwritten")
                        .error())
                .isTrue();
        assertThat(outside.resolve("pwned.txt")).doesNotExist();
        assertThat(outside.resolve("pwned2.txt")).doesNotExist();
        assertThat(outside.resolve("secret.txt")).hasContent("TOP SECRET");
    }

    // SPEC AG-5
    @Test
    void symlinksPointingOutWriteNothingOutside() throws Exception {
        Files.createSymbolicLink(ws.resolve("link.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(ws.resolve("linkdir"), outside);
        Files.createSymbolicLink(ws.resolve("dangling"), outside.resolve("created-through-link.txt"));

        assertThat(write("path", "link.txt", "content", "overwritten").error()).isTrue();
        assertThat(write("path", "link.txt", "content", "appended", "append", true)
                        .error())
                .isTrue();
        assertThat(write("path", "linkdir/new.txt", "content", "x").error()).isTrue();
        assertThat(write("path", "linkdir/deep/new.txt", "content", "x").error())
                .isTrue();
        assertThat(write("path", "dangling", "content", "x").error()).isTrue();

        assertThat(outside.resolve("secret.txt")).hasContent("TOP SECRET");
        try (Stream<Path> s = Files.list(outside)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("secret.txt");
        }
        assertThat(Files.isSymbolicLink(ws.resolve("link.txt"))).isTrue();
    }

    // SPEC AG-5: appending through a hard link would change the outside file; replacing is refused alike
    @Test
    void aHardLinkToAFileOutsideIsNeitherAppendedToNorReplaced() throws Exception {
        Files.createLink(ws.resolve("hard.txt"), outside.resolve("secret.txt"));
        assertThat(write("path", "hard.txt", "content", " appended", "append", true)
                        .output())
                .contains("hard links");
        assertThat(write("path", "hard.txt", "content", "replaced").error()).isTrue();
        assertThat(outside.resolve("secret.txt")).hasContent("TOP SECRET");
        assertThat(ws.resolve("hard.txt")).hasContent("TOP SECRET");
    }

    // SPEC AG-5
    @Test
    void aLinkInsideTheWorkspaceIsWrittenThroughAndStaysALink() throws Exception {
        Files.writeString(ws.resolve("real.txt"), "before");
        Files.createSymbolicLink(ws.resolve("alias.txt"), ws.resolve("real.txt"));
        assertThat(write("path", "alias.txt", "content", "after").error()).isFalse();
        assertThat(ws.resolve("real.txt")).hasContent("after");
        assertThat(Files.isSymbolicLink(ws.resolve("alias.txt"))).isTrue();
    }

    // SPEC AG-5
    @Test
    void badArgumentsAndDirectoriesAreClearErrors() throws Exception {
        Files.createDirectories(ws.resolve("dir"));
        assertThat(write("path", "dir", "content", "x").output()).contains("is a directory");
        assertThat(write("path", "x.txt").output()).contains("missing required argument 'content'");
        assertThat(write("path", "x.txt", "content", "x", "append", "maybe").output())
                .contains("true or false");
        Files.writeString(ws.resolve("file"), "f");
        ToolResult blocked = write("path", "file/child.txt", "content", "x");
        assertThat(blocked.error()).isTrue();
        assertThat(ws.resolve("file")).hasContent("f");
        assertThat(ws.resolve("x.txt")).doesNotExist();
    }
}

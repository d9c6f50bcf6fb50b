package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.tool.ToolResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileReadToolTest {
    @TempDir
    Path root;

    Path ws;
    Path outside;
    final FileReadTool tool = new FileReadTool(1_000);

    @BeforeEach
    void layout() throws Exception {
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "TOP SECRET");
    }

    private ToolResult read(Object... a) throws Exception {
        return tool.execute(args(a), context(ws));
    }

    // SPEC AG-5
    @Test
    void readsATextFileExactlyAsStored() throws Exception {
        Files.writeString(ws.resolve("notes.txt"), "line one\r\nline two\nno newline at end");
        ToolResult r = read("path", "notes.txt");
        assertThat(r.error()).isFalse();
        assertThat(r.output()).isEqualTo("line one\r\nline two\nno newline at end");
    }

    // SPEC AG-5
    @Test
    void readsUnicodeNamesAndContent() throws Exception {
        Files.createDirectories(ws.resolve("日本語"));
        Files.writeString(ws.resolve("日本語/naïve 😀.txt"), "héllo 世界 😀\n", StandardCharsets.UTF_8);
        ToolResult r = read("path", "日本語/naïve 😀.txt");
        assertThat(r.error()).isFalse();
        assertThat(r.output()).isEqualTo("héllo 世界 😀\n");
    }

    // SPEC AG-5
    @Test
    void offsetAndLimitSelectLinesAndSayWhereToContinue() throws Exception {
        Files.writeString(ws.resolve("n.txt"), lines(1, 10));
        ToolResult r = read("path", "n.txt", "offset", 3, "limit", 2);
        assertThat(r.output()).startsWith("3\n4\n").contains("offset=5").doesNotContain("5\n");
        assertThat(read("path", "n.txt", "offset", 9, "limit", 5).output()).isEqualTo("9\n10\n");
        ToolResult past = read("path", "n.txt", "offset", 11);
        assertThat(past.error()).isTrue();
        assertThat(past.output()).contains("past the end").contains("10 lines");
    }

    // SPEC AG-3
    @Test
    void longFileIsCutToTheBudgetWithANoteAndTheNoteLetsTheModelReadOn() throws Exception {
        String content = lines(1, 2_000);
        Files.writeString(ws.resolve("big.txt"), content);
        ToolResult first = read("path", "big.txt");
        assertThat(first.error()).isFalse();
        assertThat(first.output().length()).isLessThanOrEqualTo(1_000);
        assertThat(first.output()).contains("[... cut at").contains("the file continues");
        int resume = Integer.parseInt(first.output().replaceAll("(?s).*offset=(\\d+)].*", "$1"));
        String shownPart = first.output().substring(0, first.output().lastIndexOf("\n[... cut"));
        // everything before the resume line was shown whole, and reading on starts exactly there
        assertThat(content).startsWith(shownPart);
        ToolResult next = read("path", "big.txt", "offset", resume);
        assertThat(next.output()).startsWith(resume + "\n");
        assertThat(shownPart).contains("\n" + (resume - 1) + "\n");
    }

    // SPEC AG-5
    @Test
    void binaryFileIsRefused() throws Exception {
        Files.write(ws.resolve("data.bin"), new byte[] {1, 2, 0, 0, 0, 13, 1, 2, 3, 4, 5});
        ToolResult r = read("path", "data.bin");
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("binary").contains("11 bytes");
    }

    // SPEC AG-3, AG-4
    @Test
    void anImageComesBackAsAMarkerNeverAsBytes() throws Exception {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        Files.createDirectories(ws.resolve("pics"));
        Files.write(ws.resolve("pics/cat.PNG"), png);
        ToolResult r = read("path", "pics/cat.PNG");
        assertThat(r).isEqualTo(ToolResult.ok("[IMAGE:" + ws.toAbsolutePath().resolve("pics/cat.PNG") + "]"));
        // a name that lies about its content is not taken for an image
        Files.write(ws.resolve("fake.png"), new byte[] {'n', 'o', 't', 0, 'p', 'n', 'g'});
        assertThat(read("path", "fake.png").output()).contains("binary");
    }

    // SPEC AG-5
    @Test
    void invalidUtf8IsRefusedRatherThanGarbled() throws Exception {
        Files.write(ws.resolve("latin1.txt"), "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));
        ToolResult r = read("path", "latin1.txt");
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("not a UTF-8 text file");
    }

    // SPEC AG-5
    @Test
    void emptyMissingAndDirectoryPathsGetClearAnswers() throws Exception {
        Files.writeString(ws.resolve("empty.txt"), "");
        Files.createDirectories(ws.resolve("dir"));
        assertThat(read("path", "empty.txt").output()).isEqualTo("(empty file)");
        assertThat(read("path", "missing.txt")).isEqualTo(ToolResult.error("no such file: missing.txt"));
        assertThat(read("path", "dir").output()).contains("is a directory");
        assertThat(read().output()).contains("missing required argument 'path'");
        assertThat(read("path", 42).output()).contains("must be a string");
        assertThat(read("path", "empty.txt", "offset", 0).output()).contains("between 1 and");
    }

    // SPEC AG-5
    @Test
    void pathsOutsideTheWorkspaceAreRefusedWithoutReadingThem() throws Exception {
        Files.createSymbolicLink(ws.resolve("link.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(ws.resolve("linkdir"), outside);
        for (String p : new String[] {
            "../outside/secret.txt", outside.resolve("secret.txt").toString(), "link.txt", "linkdir/secret.txt"
        }) {
            ToolResult r = read("path", p);
            assertThat(r.error()).as(p).isTrue();
            assertThat(r.output()).as(p).doesNotContain("TOP SECRET");
        }
    }

    // SPEC AG-5: a hard link already in the workspace is the outside file under a second name
    @Test
    void aHardLinkToAFileOutsideIsRefusedWithoutReadingIt() throws Exception {
        Files.createLink(ws.resolve("hard.txt"), outside.resolve("secret.txt"));
        ToolResult r = read("path", "hard.txt");
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("hard links").doesNotContain("TOP SECRET");
    }

    private static String lines(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(Integer::toString).collect(Collectors.joining("\n", "", "\n"));
    }
}

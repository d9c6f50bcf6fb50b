package dev.clawgate.core.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspacePathsTest {
    @TempDir
    Path root;

    Path ws;
    Path outside;

    @BeforeEach
    void layout() throws Exception {
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.createDirectories(ws.resolve("sub"));
        Files.writeString(ws.resolve("sub/inner.txt"), "inner");
    }

    // SPEC AG-5
    @Test
    void relativePathResolvesInsideTheWorkspace() throws Exception {
        assertThat(WorkspacePaths.resolve(ws, "sub/inner.txt"))
                .isEqualTo(ws.toAbsolutePath().resolve("sub/inner.txt"));
        assertThat(WorkspacePaths.resolve(ws, "./sub/./inner.txt"))
                .isEqualTo(ws.toAbsolutePath().resolve("sub/inner.txt"));
        assertThat(WorkspacePaths.resolve(ws, ".")).isEqualTo(ws.toAbsolutePath());
        assertThat(WorkspacePaths.resolve(ws, "not/yet/there.txt"))
                .isEqualTo(ws.toAbsolutePath().resolve("not/yet/there.txt"));
    }

    // SPEC AG-5
    @Test
    void absolutePathInsideTheWorkspaceIsAccepted() throws Exception {
        String abs = ws.toAbsolutePath().resolve("sub/inner.txt").toString();
        assertThat(WorkspacePaths.resolve(ws, abs))
                .isEqualTo(ws.toAbsolutePath().resolve("sub/inner.txt"));
        String real = ws.toRealPath().resolve("sub/inner.txt").toString();
        assertThat(WorkspacePaths.resolve(ws, real))
                .isEqualTo(ws.toAbsolutePath().resolve("sub/inner.txt"));
    }

    // SPEC AG-5
    @Test
    void dotDotIsRefusedEvenWhenItWouldStayInside() {
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "../outside/secret.txt"))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("..");
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "sub/../../outside/secret.txt"))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("..");
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "sub/../sub/inner.txt"))
                .isInstanceOf(RefusedException.class);
    }

    // SPEC AG-5
    @Test
    void absolutePathOutsideTheWorkspaceIsRefused() {
        assertThatThrownBy(() ->
                        WorkspacePaths.resolve(ws, outside.resolve("secret.txt").toString()))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("outside the workspace");
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "/etc/passwd")).isInstanceOf(RefusedException.class);
        // a sibling whose name starts with the workspace's name is not inside it
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, ws.toAbsolutePath() + "-evil/x"))
                .isInstanceOf(RefusedException.class);
    }

    // SPEC AG-5
    @Test
    void emptyBlankAndNullBytePathsAreRefused() {
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, ""))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "  ")).isInstanceOf(RefusedException.class);
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, null)).isInstanceOf(RefusedException.class);
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "sub/a\0.txt"))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("null byte");
    }

    // SPEC AG-5
    @Test
    void symlinkToAFileOutsideIsRefused() throws Exception {
        Files.createSymbolicLink(ws.resolve("link.txt"), outside.resolve("secret.txt"));
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "link.txt"))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("symbolic link");
    }

    // SPEC AG-5
    @Test
    void symlinkedDirectoryPointingOutIsRefusedForExistingAndNewChildren() throws Exception {
        Files.createSymbolicLink(ws.resolve("linkdir"), outside);
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "linkdir")).isInstanceOf(RefusedException.class);
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "linkdir/secret.txt"))
                .isInstanceOf(RefusedException.class);
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "linkdir/new/deeper.txt"))
                .isInstanceOf(RefusedException.class);
    }

    // SPEC AG-5
    @Test
    void danglingSymlinkIsRefusedBecauseWritingWouldFollowIt() throws Exception {
        Files.createSymbolicLink(ws.resolve("dangling"), outside.resolve("not-yet.txt"));
        assertThatThrownBy(() -> WorkspacePaths.resolve(ws, "dangling"))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("broken symbolic link");
    }

    // SPEC AG-5: a hard link made before the gateway ran is the outside file under a second name
    @Test
    void aHardLinkToAFileOutsideIsRefusedDirectlyAndThroughAnInsideSymlink() throws Exception {
        Files.createLink(ws.resolve("hard.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(ws.resolve("to-hard.txt"), ws.resolve("hard.txt"));
        for (String path :
                new String[] {"hard.txt", "./hard.txt", ws.resolve("hard.txt").toString(), "to-hard.txt"}) {
            assertThatThrownBy(() -> WorkspacePaths.resolve(ws, path))
                    .as(path)
                    .isInstanceOf(RefusedException.class)
                    .hasMessageContaining("2 hard links");
        }
        // a file with one name and a directory (which always has several links) are fine
        assertThat(WorkspacePaths.resolve(ws, "sub/inner.txt"))
                .isEqualTo(ws.toAbsolutePath().resolve("sub/inner.txt"));
        Files.createDirectories(ws.resolve("sub/deeper"));
        assertThat(WorkspacePaths.resolve(ws, "sub"))
                .isEqualTo(ws.toAbsolutePath().resolve("sub"));
    }

    // SPEC AG-5
    @Test
    void symlinkThatStaysInsideIsAllowed() throws Exception {
        Files.createSymbolicLink(ws.resolve("alias.txt"), ws.resolve("sub/inner.txt"));
        Files.createSymbolicLink(ws.resolve("aliasdir"), ws.resolve("sub"));
        assertThat(WorkspacePaths.resolve(ws, "alias.txt"))
                .isEqualTo(ws.toAbsolutePath().resolve("alias.txt"));
        assertThat(WorkspacePaths.resolve(ws, "aliasdir/inner.txt"))
                .isEqualTo(ws.toAbsolutePath().resolve("aliasdir/inner.txt"));
    }

    // SPEC AG-5
    @Test
    void workspaceReachedThroughASymlinkStillConfinesPaths() throws Exception {
        Path wsLink = Files.createSymbolicLink(root.resolve("ws-link"), ws);
        assertThat(WorkspacePaths.resolve(wsLink, "sub/inner.txt"))
                .isEqualTo(wsLink.toAbsolutePath().resolve("sub/inner.txt"));
        Files.createSymbolicLink(ws.resolve("out"), outside);
        assertThatThrownBy(() -> WorkspacePaths.resolve(wsLink, "out/secret.txt"))
                .isInstanceOf(RefusedException.class);
    }

    // SPEC AG-5
    @Test
    void unicodeNamesResolve() throws Exception {
        assertThat(WorkspacePaths.resolve(ws, "日本語/naïve 😀.txt"))
                .isEqualTo(ws.toAbsolutePath().resolve("日本語").resolve("naïve 😀.txt"));
    }

    // SPEC AG-5
    @Test
    void missingWorkspaceIsARefusalNotACrash() {
        assertThatThrownBy(() -> WorkspacePaths.resolve(root.resolve("nope"), "a.txt"))
                .isInstanceOf(RefusedException.class)
                .hasMessageContaining("workspace");
    }
}

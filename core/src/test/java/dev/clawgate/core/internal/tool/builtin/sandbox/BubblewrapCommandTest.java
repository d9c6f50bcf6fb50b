package dev.clawgate.core.internal.tool.builtin.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// SPEC AG-8: what the sandbox binds, hides and limits, from the host's layout
class BubblewrapCommandTest {
    @TempDir
    Path dir;

    private static Bubblewrap bwrap(Path root, List<Path> hidden) {
        return new Bubblewrap(
                Path.of("/usr/bin/bwrap"),
                Optional.of(Path.of("/usr/bin/prlimit")),
                Optional.empty(),
                SandboxLimits.forTimeout(30),
                hidden,
                root);
    }

    /** The index of {@code a, b} as consecutive arguments, or -1. */
    private static int pair(List<String> c, String... words) {
        return Collections.indexOfSubList(c, List.of(words));
    }

    @Test
    void mergedAndSplitSystemDirectoriesAreRecreatedAsTheHostHasThemAndOnlyListedEtcEntriesAreBound() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.createDirectories(root.resolve("usr/bin"));
        Files.createSymbolicLink(root.resolve("bin"), Path.of("usr/bin"));
        Files.createDirectories(root.resolve("lib64"));
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/passwd"), "root:x:0:0::/root:/bin/sh\n");
        Files.writeString(root.resolve("etc/shadow"), "root:$6$secret\n");
        Files.createSymbolicLink(root.resolve("etc/localtime"), Path.of("/usr/share/zoneinfo/UTC"));
        Path ws = Files.createDirectories(dir.resolve("ws"));
        List<String> c = bwrap(root, List.of()).command(List.of("ls", "-l"), ws.toRealPath());
        assertThat(pair(c, "--symlink", "usr/bin", "/bin")).isPositive();
        assertThat(pair(c, "--ro-bind", root.resolve("lib64").toString(), "/lib64"))
                .isPositive();
        assertThat(pair(c, "--ro-bind", root.resolve("etc/passwd").toString(), "/etc/passwd"))
                .isPositive();
        assertThat(pair(c, "--symlink", "/usr/share/zoneinfo/UTC", "/etc/localtime"))
                .isPositive();
        assertThat(String.join(" ", c))
                .doesNotContain("shadow")
                .doesNotContain("--proc")
                .doesNotContain("--share-net");
        assertThat(pair(c, "--bind", ws.toRealPath().toString(), ws.toRealPath().toString()))
                .isPositive();
        assertThat(c)
                .contains(
                        "--unshare-all",
                        "--unshare-user",
                        "--disable-userns",
                        "--die-with-parent",
                        "--new-session",
                        "--clearenv");
        assertThat(pair(c, "--cap-drop", "ALL")).isPositive();
        assertThat(c.subList(c.size() - 2, c.size())).containsExactly("ls", "-l");
        assertThat(c.subList(c.indexOf("--") + 1, c.size())).startsWith("/usr/bin/prlimit", "--cpu=30:31");
    }

    @Test
    void theGatewaysConfigAndDataDirAreHiddenWhereverTheyLieInsideTheWorkspace() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Path data = Files.createDirectories(ws.resolve("data"));
        Path config = Files.writeString(ws.resolve("clawgate.toml"), "bot_token = \"x\"");
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        List<String> c = bwrap(Path.of("/"), List.of(data, config, elsewhere)).command(List.of("ls"), ws.toRealPath());
        int bind = pair(c, "--bind", ws.toRealPath().toString(), ws.toRealPath().toString());
        int hideData = pair(
                c,
                "--tmpfs",
                data.toRealPath().toString(),
                "--remount-ro",
                data.toRealPath().toString());
        int hideConfig = pair(c, "--ro-bind", "/dev/null", config.toRealPath().toString());
        assertThat(hideData).isGreaterThan(bind);
        assertThat(hideConfig).isGreaterThan(bind);
        assertThat(String.join(" ", c)).doesNotContain(elsewhere.toString());
    }

    @Test
    void aWorkspaceThatIsTheDataDirOrHoldsTheSystemIsRefused() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        assertThatThrownBy(() -> bwrap(Path.of("/"), List.of(data)).command(List.of("ls"), data.toRealPath()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("holds the gateway's own files");
        assertThatThrownBy(() -> bwrap(Path.of("/"), List.of()).command(List.of("ls"), Path.of("/")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("holds the system directories");
    }
}

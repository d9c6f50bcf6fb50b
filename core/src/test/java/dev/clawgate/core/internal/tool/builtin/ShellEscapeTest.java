package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxes;
import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workspace escapes through the shell tool, as a model (or a prompt injected into it) would try them, against the real
 * tool in the real sandbox (SPEC AG-5, AG-8). Outside the workspace lie a config file with a bot token and a directory;
 * nothing outside may be read, listed, written or linked.
 */
class ShellEscapeTest {
    static final String TOKEN = "123456:BOT-TOKEN-never-leaves";
    static final List<String> ALLOW = List.of(
            "ls", "cat", "echo", "date", "head", "tail", "wc", "grep", "find", "sort", "uniq", "mkdir", "touch", "cp",
            "mv", "dd");

    @TempDir
    Path root;

    Path ws;
    Path config;
    Path outsideDir;

    @BeforeEach
    void lay() throws Exception {
        ws = Files.createDirectories(root.resolve("workspace"));
        Files.writeString(ws.resolve("notes.txt"), "b\na\n");
        config = Files.writeString(
                root.resolve("clawgate.toml"), "[channels.telegram]\nbot_token = \"" + TOKEN + "\"\n");
        outsideDir = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outsideDir.resolve("secret.txt"), "secret " + TOKEN + "\n");
    }

    private ToolResult run(String command) throws Exception {
        return new ShellTool(new ToolSettings(8_000, ALLOW, 10, 16_000)).execute(args("command", command), context(ws));
    }

    private void assertRefusedAndNothingLeaked(String command) throws Exception {
        ToolResult r = run(command);
        assertThat(r.error()).as(command + " -> " + r.output()).isTrue();
        assertThat(r.output()).as(command).doesNotContain(TOKEN).doesNotStartWith("exit code");
    }

    /** The leak found by the attack probe: date -f prints each line it cannot parse, the bot token included. */
    // SPEC AG-5, AG-8
    @Test
    void anAttachedOptionValueCannotReadTheGatewaysConfig() throws Exception {
        for (String attack : List.of(
                "date -f" + config,
                "date -uf" + config,
                "date --file=" + config,
                "date -f../clawgate.toml",
                "date -f ../clawgate.toml",
                "head -n1000" + config,
                "grep -f" + config + " notes.txt",
                "sort -T/ -o" + config + " notes.txt")) {
            assertRefusedAndNothingLeaked(attack);
        }
        assertThat(config).content().contains(TOKEN);
    }

    /** The writes found by the attack probe: sort -o and cp -t wrote outside the workspace. */
    // SPEC AG-5, AG-8
    @Test
    void anAttachedOptionValueCannotWriteOutsideTheWorkspace() throws Exception {
        for (String attack : List.of(
                "sort -o" + outsideDir.resolve("sorted") + " notes.txt",
                "sort -o../outside/sorted notes.txt",
                "cp -t" + outsideDir + " notes.txt",
                "cp -t../outside notes.txt",
                "cp -vt" + outsideDir + " notes.txt",
                "cp --target-directory=" + outsideDir + " notes.txt",
                "sort --output=../outside/sorted notes.txt",
                "mv -t../outside notes.txt",
                "dd if=notes.txt of=" + outsideDir.resolve("dd"),
                "dd if=notes.txt of=../outside/dd",
                "mkdir -p" + outsideDir.resolve("made"),
                "touch -r notes.txt " + outsideDir.resolve("touched"))) {
            assertRefusedAndNothingLeaked(attack);
        }
        try (var files = Files.list(outsideDir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("secret.txt");
        }
        assertThat(ws.resolve("notes.txt")).exists();
    }

    /** The symlink found by the attack probe: one already in the workspace, followed by grep -R and find -L. */
    // SPEC AG-8
    @Test
    void aSymlinkAlreadyInTheWorkspaceLeadsNowhereForRecursivePrograms() throws Exception {
        Files.createSymbolicLink(ws.resolve("docs"), outsideDir);
        Files.createSymbolicLink(ws.resolve("cfg"), config);
        for (String command : List.of(
                "grep -R BOT-TOKEN .",
                "grep -r -l secret .",
                "find -L . -name secret.txt",
                "find -L . -type f",
                "ls -RL",
                "cp -rL . ../copy")) {
            ToolResult r = run(command);
            assertThat(r.output()).as(command).doesNotContain(TOKEN).doesNotContain("secret.txt");
        }
        // the links themselves are refused as arguments, before the sandbox
        assertRefusedAndNothingLeaked("cat cfg");
        assertRefusedAndNothingLeaked("cat docs/secret.txt");
        assertRefusedAndNothingLeaked("cp notes.txt docs/new.txt");
        assertThat(outsideDir.resolve("new.txt")).doesNotExist();
    }

    // SPEC AG-5, AG-8
    @Test
    void pathsHomesGlobsDevicesAndProcAreRefused() throws Exception {
        for (String attack : List.of(
                "cat /etc/shadow",
                "cat " + config,
                "ls ..",
                "ls ../outside",
                "cat notes.txt/../../clawgate.toml",
                "ls ~",
                "cat ~/.ssh/id_rsa",
                "ls ~root",
                "cat '/etc/*'",
                "ls ../*",
                "ls " + root + "/*",
                "cat /dev/sda",
                "head -c 100 /dev/mem",
                "cat /dev/zero",
                "cat /proc/self/environ",
                "ls /proc/self/cwd/..",
                "cat /proc/1/root/etc/shadow",
                "tail -F/etc/passwd")) {
            assertRefusedAndNothingLeaked(attack);
        }
        // a glob is never expanded: it is a file name, which does not exist
        ToolResult star = run("cat *");
        assertThat(star.output()).startsWith("exit code: 1").contains("*");
    }

    // SPEC AG-5, AG-8
    @Test
    void linksToOutsideCannotBeMadeNorFollowed() throws Exception {
        Files.createSymbolicLink(ws.resolve("dev-link"), Path.of("/dev/zero"));
        Files.createSymbolicLink(ws.resolve("proc-link"), Path.of("/proc/self/environ"));
        for (String attack : List.of(
                "cat dev-link",
                "cat proc-link",
                "cp -l " + outsideDir.resolve("secret.txt") + " hard",
                "cp -l ../outside/secret.txt hard",
                "cp --link ../clawgate.toml hard",
                "cp -s ../clawgate.toml soft")) {
            assertRefusedAndNothingLeaked(attack);
        }
        assertThat(ws.resolve("hard")).doesNotExist();
        assertThat(ws.resolve("soft")).doesNotExist();
    }

    // SPEC AG-5, AG-8: a hard link made before the gateway ran (no command in the sandbox can make one to an
    // outside file) is refused when an argument names it; a recursive read is the limit SECURITY.md states
    @Test
    void aHardLinkAlreadyInTheWorkspaceIsRefusedAsAnArgument() throws Exception {
        Files.createLink(ws.resolve("hard.txt"), config);
        for (String attack : List.of(
                "cat hard.txt",
                "head -n5 hard.txt",
                "grep -f hard.txt notes.txt",
                "date -fhard.txt",
                "cp hard.txt copy.txt",
                "sort -o hard.txt notes.txt")) {
            assertRefusedAndNothingLeaked(attack);
        }
        assertThat(ws.resolve("copy.txt")).doesNotExist();
        assertThat(config).content().contains(TOKEN);
    }

    // SPEC AG-8: a config file or data dir inside the workspace is covered in the sandbox, whatever reads it
    @Test
    void theGatewaysOwnFilesInsideTheWorkspaceAreHiddenFromCommands() throws Exception {
        Path data = Files.createDirectories(ws.resolve("data"));
        Files.writeString(data.resolve("clawgate.db"), "row " + TOKEN);
        Path inner = Files.writeString(ws.resolve("clawgate.toml"), "bot_token = \"" + TOKEN + "\"\n");
        ToolSettings settings = new ToolSettings(8_000, ALLOW, 10, 16_000);
        ShellTool tool = new ShellTool(
                settings,
                ShellSandboxes.select(settings, List.of(data, inner)).sandbox().orElseThrow());
        for (String command : List.of("cat clawgate.toml", "ls data", "grep -R BOT-TOKEN .", "cat data/clawgate.db")) {
            ToolResult r = tool.execute(args("command", command), context(ws));
            assertThat(r.output()).as(command).doesNotContain(TOKEN).doesNotContain("clawgate.db\n");
        }
        ToolResult write = tool.execute(args("command", "cp notes.txt data/planted"), context(ws));
        assertThat(write.output()).contains("Read-only file system");
        assertThat(data.resolve("planted")).doesNotExist();
        assertThat(inner).content().contains(TOKEN);
    }

    // SPEC AG-5: the general rule still lets ordinary options and files through
    @Test
    void ordinaryOptionsAndWorkspaceFilesStillWork() throws Exception {
        assertThat(run("sort -o sorted.txt notes.txt").output()).isEqualTo("exit code: 0");
        assertThat(ws.resolve("sorted.txt")).hasContent("a\nb");
        assertThat(run("sort -osorted2.txt notes.txt").output()).isEqualTo("exit code: 0");
        assertThat(run("head -n1 notes.txt").output()).isEqualTo("exit code: 0\nb");
        assertThat(run("mkdir -p sub/dir").output()).isEqualTo("exit code: 0");
        assertThat(run("cp -t sub/dir notes.txt").output()).isEqualTo("exit code: 0");
        assertThat(ws.resolve("sub/dir/notes.txt")).exists();
        assertThat(run("date -d@0 -u +%Y").output()).isEqualTo("exit code: 0\n1970");
        assertThat(run("grep -c a notes.txt").output()).isEqualTo("exit code: 0\n1");
    }
}

package dev.clawgate.testkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A stand-in for a coding-agent CLI (the seeds' Kiro path): a bash script that reads a prompt on stdin or from a file
 * and acts like an agent program — replies, answers in the {@code <tool_call>} dialect, prints the seed's overflow
 * notice, writes to stderr and fails, or sleeps ignoring SIGTERM with a child that does too. Its header lists the
 * behaviours and the variables that steer them. Run it as {@code bash <script()>}: a real process, so the production
 * process handling runs.
 */
public final class FakeAgentCli {
    private static final String RESOURCE = "/dev/clawgate/testkit/cli/fake-agent.sh";
    private static volatile Path extracted;

    private FakeAgentCli() {}

    /** The script as a file (copied out of the jar once, when the class path holds it there). */
    public static Path script() {
        Path p = extracted;
        if (p != null) return p;
        try (InputStream in = FakeAgentCli.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException("missing resource " + RESOURCE);
            Path f = Files.createTempFile("fake-agent-", ".sh");
            Files.copy(in, f, StandardCopyOption.REPLACE_EXISTING);
            f.toFile().deleteOnExit();
            extracted = f;
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

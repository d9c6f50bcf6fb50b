package dev.clawgate.server;

import static dev.clawgate.server.GatewayHarness.chat;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.ShellSandboxMode;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.testkit.openai.Reply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What the gateway says at start about the shell's sandbox, and what it offers the model (SPEC AG-8). */
class ShellSandboxWiringTest extends GatewayFixture {
    private final Logger logger = (Logger) LoggerFactory.getLogger(Gateway.class);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

    @BeforeEach
    void capture() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logs);
    }

    private List<String> lines() {
        return logs.list.stream()
                .map(e -> e.getLevel() + " " + e.getFormattedMessage())
                .toList();
    }

    private ClawgateConfig withSandbox(ShellSandboxMode mode) {
        ClawgateConfig base = config();
        ToolSettings d = base.tools();
        ToolSettings tools = new ToolSettings(
                d.maxResultChars(), d.shellAllowlist(), d.shellTimeoutSecs(), d.shellOutputCap(), mode);
        return new ClawgateConfig(
                base.gateway(), base.agent(), base.providers(), base.routes(), base.history(), tools, base.dispatch());
    }

    private List<String> offeredTools() {
        List<String> names = new ArrayList<>();
        for (JsonNode t : model.chatRequests().getFirst().body().path("tools")) {
            names.add(t.path("function").path("name").asText());
        }
        return names;
    }

    // SPEC AG-8: the default sandbox is said at start with each limit, and the shell is offered in it
    @Test
    void theDefaultStartSaysWhichSandboxAndLimitsTheShellHas() throws Exception {
        model.enqueue(Reply.toolCalls(Reply.call("shell", "{\"command\": \"pwd\"}")), Reply.text("ok"));
        start(withSandbox(ShellSandboxMode.BWRAP), GatewayOptions.server());
        chat(gateway.httpPort(), "s", "list", null);
        assertThat(lines())
                .anyMatch(l -> l.startsWith("INFO shell sandbox: bubblewrap"))
                .anyMatch(l -> l.startsWith("INFO shell limits per command (cgroup"))
                .noneMatch(l -> l.startsWith("WARN") && l.contains("shell"));
        assertThat(offeredTools()).contains("shell");
        JsonNode last = model.chatRequests().getLast().body().path("messages");
        assertThat(last.get(last.size() - 1).path("content").asText())
                .contains("exit code: 0")
                .contains(dir.resolve("workspace").toRealPath().toString());
    }

    // SPEC AG-8: "none" is an explicit opt-out, warned about at start; the command then runs on the host
    @Test
    void noneIsWarnedAboutAtStart() throws Exception {
        model.enqueue(Reply.text("ok"));
        start(withSandbox(ShellSandboxMode.NONE), GatewayOptions.server());
        chat(gateway.httpPort(), "s", "hello", null);
        assertThat(lines())
                .anyMatch(l -> l.startsWith("WARN tools.shell_sandbox = \"none\": shell commands run")
                        && l.contains("to fix: remove tools.shell_sandbox"));
        assertThat(offeredTools()).contains("shell");
    }
}

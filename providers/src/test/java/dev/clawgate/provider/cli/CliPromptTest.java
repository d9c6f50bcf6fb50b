package dev.clawgate.provider.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.CliProviderSettings;
import dev.clawgate.core.config.CliProviderSettings.PromptMode;
import dev.clawgate.core.config.CliProviderSettings.PromptVia;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.prompt.PromptContext;
import dev.clawgate.core.prompt.SystemPromptBuilder;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.ToolSpec;
import dev.clawgate.core.run.CancelToken;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a CLI agent is sent (SPEC SP-3 beyond, seed 001 §9.1): in minimal mode only what it lacks, in full mode the
 * gateway's whole system prompt; the user's newest message last either way.
 */
class CliPromptTest {
    private static final String BOOTSTRAP_MARK = "I am the AGENTS.md persona text";

    @TempDir
    Path workspace;

    private String systemPrompt() throws Exception {
        Files.writeString(
                workspace.resolve("AGENTS.md"),
                BOOTSTRAP_MARK + "\n\n## Runtime\nnot the real runtime section\n" + "x".repeat(3000));
        Files.writeString(workspace.resolve("SOUL.md"), "Be kind. ".repeat(200));
        ToolSpec echo = new ToolSpec(
                "echo_tool",
                "Echo text back",
                new ObjectMapper().readTree("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}"));
        SystemPromptBuilder builder = SystemPromptBuilder.create(
                Clock.fixed(Instant.parse("2026-11-27T03:00:00Z"), ZoneOffset.UTC), ZoneOffset.UTC);
        return builder.build(PromptContext.builder(workspace)
                        .tools(List.of(echo))
                        .nativeTools(false)
                        .model("m")
                        .provider("agent")
                        .channel("telegram")
                        .replyTarget("42")
                        .memory(List.of(new MemoryLine("telegram_alice_1", "Alice likes tea")))
                        .build())
                .text();
    }

    private List<ChatMessage> conversation(String system) {
        return List.of(
                ChatMessage.system(system),
                ChatMessage.user("first question"),
                ChatMessage.assistant("first answer"),
                ChatMessage.user("the newest message"));
    }

    @Test
    void minimalKeepsToolsChannelGuidanceAndMemoryAndDropsWhatTheAgentHasItself() throws Exception {
        String minimal = CliPrompt.render(conversation(systemPrompt()), PromptMode.MINIMAL);
        assertThat(minimal)
                .contains(
                        "## Tools",
                        "<tool_call>",
                        "echo_tool",
                        "## Your Task",
                        "## Channel Capabilities",
                        "## Channel Context",
                        "channel=telegram",
                        "[Memory context]",
                        "Alice likes tea");
        assertThat(minimal)
                .doesNotContain(
                        "## Project Context",
                        BOOTSTRAP_MARK,
                        "Be kind.",
                        "not the real runtime",
                        "## Workspace",
                        "## Runtime",
                        "## Safety",
                        "## Current Date & Time");
        assertThat(minimal.strip()).endsWith("[User]\nthe newest message");
    }

    @Test
    void fullSendsEverythingAndMinimalIsSmaller() throws Exception {
        String system = systemPrompt();
        String full = CliPrompt.render(conversation(system), PromptMode.FULL);
        String minimal = CliPrompt.render(conversation(system), PromptMode.MINIMAL);
        assertThat(full).contains(system, BOOTSTRAP_MARK, "## Runtime\nHost:");
        assertThat(full.strip()).endsWith("[User]\nthe newest message");
        assertThat(minimal.length()).isLessThan(full.length() - 4000);
    }

    @Test
    void anOperatorsOwnSystemTextIsKeptWhole() {
        assertThat(CliPrompt.minimal("You are a pirate.")).isEqualTo("You are a pirate.");
    }

    @Test
    void theProgramReceivesTheSmallerPromptInMinimalMode() throws Exception {
        // SPEC SP-3 beyond: measured at the program's stdin
        String system = systemPrompt();
        int[] sizes = new int[2];
        for (PromptMode mode : PromptMode.values()) {
            Path out = workspace.resolve("prompt-" + mode + ".txt");
            CliProviderSettings cli = new CliProviderSettings(
                    "bash",
                    List.of(CliProviderTest.script().toString()),
                    Map.of("FAKE_AGENT_PROMPT_OUT", out.toString()),
                    workspace,
                    Duration.ofSeconds(60),
                    PromptVia.STDIN,
                    mode,
                    null,
                    1);
            try (CliProvider p = new CliProvider(
                    new ProviderSettings("agent", "cli", null, null, null, "m", 120, null, null, null, cli))) {
                assertThat(p.chat(
                                        new ChatRequest("m", conversation(system), List.of(), false, null),
                                        StreamObserver.NONE,
                                        CancelToken.none())
                                .text())
                        .isEqualTo("You said: the newest message");
            }
            sizes[mode.ordinal()] = Files.readString(out).length();
        }
        assertThat(sizes[PromptMode.MINIMAL.ordinal()]).isLessThan(sizes[PromptMode.FULL.ordinal()]);
    }
}

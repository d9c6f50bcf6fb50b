package dev.clawgate.core.prompt;

import static dev.clawgate.core.prompt.PromptFixtures.BERLIN;
import static dev.clawgate.core.prompt.PromptFixtures.builder;
import static dev.clawgate.core.prompt.PromptFixtures.tools;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.internal.prompt.Skill;
import dev.clawgate.core.internal.prompt.SkillsMode;
import dev.clawgate.core.internal.tool.builtin.BuiltinTools;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.provider.ToolSpec;
import dev.clawgate.core.tool.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemPromptBuilderTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-04T13:05:09Z"), ZoneOffset.UTC);

    @TempDir
    Path ws;

    private PromptContext.Builder everything() throws Exception {
        Files.writeString(ws.resolve("IDENTITY.md"), "I am Claw.");
        return PromptContext.builder(ws)
                .tools(tools())
                .nativeTools(true)
                .hardwareTools(true)
                .model("gpt-test")
                .provider("openai")
                .channel("telegram")
                .replyTarget("12345678")
                .chatType(ChatType.DIRECT)
                .skills(List.of(new Skill("summarise", "Summarise a long text")))
                .memory(List.of(new MemoryLine("pref_tea", "Alice drinks green tea")));
    }

    // SPEC SP-1, ME-4
    @Test
    void sectionsFollowTheSpecOrderAndMakeUpTheWholeText() throws Exception {
        BuiltPrompt p = builder(CLOCK).build(everything().build());
        assertThat(p.sectionNames())
                .containsExactly(
                        "Tools",
                        "Hardware",
                        "Your Task",
                        "Safety",
                        "Skills",
                        "Workspace",
                        "Project Context",
                        "Current Date & Time",
                        "Runtime",
                        "Channel Capabilities",
                        "Channel Context",
                        "Memory Context");
        int at = -1;
        for (PromptSection s : p.sections()) {
            int found = p.text().indexOf(s.text());
            assertThat(found).as(s.name()).isGreaterThan(at);
            at = found;
        }
        int total = p.sections().stream().mapToInt(PromptSection::chars).sum()
                + 2 * (p.sections().size() - 1);
        assertThat(p.text()).hasSize(total);
        assertThat(p.section("Tools").orElseThrow().text()).startsWith("## Tools\n");
    }

    // SPEC SP-1
    @Test
    void sectionsWithNothingToSayAreLeftOut() {
        BuiltPrompt p =
                builder(CLOCK).build(PromptContext.builder(ws).tools(tools()).build());
        assertThat(p.sectionNames())
                .containsExactly("Tools", "Your Task", "Safety", "Workspace", "Current Date & Time", "Runtime");
        assertThat(p.text()).doesNotContain("[Memory context]", "## Hardware", "## Skills", "## Project Context");
    }

    // SPEC SP-1, SP-3
    @Test
    void nativeToolsGetTheListButNoProtocol() {
        BuiltPrompt p = builder(CLOCK)
                .build(PromptContext.builder(ws)
                        .tools(tools())
                        .nativeTools(true)
                        .build());
        String toolsText = p.section("Tools").orElseThrow().text();
        assertThat(toolsText).contains("- weather: Current weather for a city", "- dice: Roll a die");
        assertThat(p.text()).doesNotContain("<tool_call>", "Tool Use Protocol", "\"required\"");
        assertThat(p.section("Your Task").orElseThrow().text()).contains("tool-calling interface");
    }

    // SPEC SP-3
    @Test
    void promptGuidedToolsGetTheProtocolWithEveryToolsSchema() {
        List<ToolSpec> specs = BuiltinTools.create(ToolSettings.defaults()).stream()
                .map(Tool::spec)
                .toList();
        BuiltPrompt p = builder(CLOCK)
                .build(PromptContext.builder(ws).tools(specs).nativeTools(false).build());
        String toolsText = p.section("Tools").orElseThrow().text();
        assertThat(toolsText).contains("<tool_call>{\"name\": \"tool_name\", \"arguments\": {...}}</tool_call>");
        assertThat(specs).hasSize(9);
        for (ToolSpec s : specs)
            assertThat(toolsText)
                    .contains("- " + s.name() + ": " + s.parameters().toString());
        assertThat(p.section("Your Task").orElseThrow().text())
                .contains("<tool_call>")
                .doesNotContain("tool-calling interface");
    }

    // SPEC SP-3
    @Test
    void noToolsMeansNoProtocolEvenForAPromptGuidedProvider() {
        BuiltPrompt p = builder(CLOCK)
                .build(PromptContext.builder(ws).nativeTools(false).build());
        assertThat(p.section("Tools").orElseThrow().text()).contains("No tools are available");
        assertThat(p.text()).doesNotContain("<tool_call>{");
    }

    // SPEC SP-1
    @Test
    void bootstrapFilesAreReadInOrderAndEachIsCutAt20000Characters() throws Exception {
        Files.writeString(ws.resolve("AGENTS.md"), "agents rules");
        Files.writeString(ws.resolve("SOUL.md"), "é".repeat(20_000) + "SOUL-TAIL-NOT-SHOWN");
        Files.writeString(ws.resolve("IDENTITY.md"), "x".repeat(20_000));
        BuiltPrompt p = builder(CLOCK).build(PromptContext.builder(ws).build());
        String ctx = p.section("Project Context").orElseThrow().text();
        assertThat(ctx.indexOf("### IDENTITY.md")).isLessThan(ctx.indexOf("### SOUL.md"));
        assertThat(ctx.indexOf("### SOUL.md")).isLessThan(ctx.indexOf("### AGENTS.md"));
        assertThat(ctx).doesNotContain("USER.md");
        assertThat(ctx).contains("é".repeat(20_000)).doesNotContain("SOUL-TAIL").doesNotContain("é".repeat(20_001));
        assertThat(ctx).contains("[... SOUL.md is longer: cut at 20000 characters]");
        // exactly at the limit is not cut
        assertThat(ctx).contains("x".repeat(20_000)).doesNotContain("IDENTITY.md is longer");
    }

    // SPEC SP-1, AG-5
    @Test
    void aBootstrapFileLinkedFromOutsideTheWorkspaceIsNotRead(@TempDir Path outside) throws Exception {
        Files.writeString(outside.resolve("secret"), "TOP SECRET");
        Files.createSymbolicLink(ws.resolve("USER.md"), outside.resolve("secret"));
        Files.writeString(ws.resolve("SOUL.md"), "kind");
        BuiltPrompt p = builder(CLOCK).build(PromptContext.builder(ws).build());
        assertThat(p.text()).contains("kind").doesNotContain("TOP SECRET");
    }

    // SPEC SP-1
    @Test
    void dateTimeComesFromTheInjectedClockInTheConfiguredZone() {
        BuiltPrompt p = builder(CLOCK).build(PromptContext.builder(ws).build());
        assertThat(p.section("Current Date & Time").orElseThrow().text())
                .isEqualTo(
                        "## Current Date & Time\n2025-03-04 14:05:09 (Tuesday), time zone Europe/Berlin (UTC+01:00)");
        BuiltPrompt utc = new SystemPromptBuilder(
                        CLOCK, ZoneOffset.UTC, "h", SkillsMode.FULL, ChannelGuidance.defaults())
                .build(PromptContext.builder(ws).build());
        assertThat(utc.text()).contains("2025-03-04 13:05:09 (Tuesday), time zone Z (UTC+00:00)");
    }

    // SPEC SP-1
    @Test
    void runtimeNamesHostOsModelAndProvider() {
        BuiltPrompt p = builder(CLOCK)
                .build(PromptContext.builder(ws)
                        .model("gpt-test")
                        .provider("openai")
                        .build());
        assertThat(p.section("Runtime").orElseThrow().text())
                .contains(
                        "Host: test-host",
                        "OS: " + System.getProperty("os.name"),
                        "Model: gpt-test",
                        "Provider: openai");
        assertThat(builder(CLOCK).build(PromptContext.builder(ws).build()).text())
                .contains("Model: the provider's default");
    }

    // SPEC SP-1
    @Test
    void channelCapabilitiesDependOnTheChannel() {
        String telegram = capabilities("telegram");
        assertThat(telegram).contains("Markdown", "[IMAGE:path]", "[DOCUMENT:path]");
        assertThat(capabilities("terminal")).contains("plain text").doesNotContain("[IMAGE:");
        assertThat(capabilities("api")).contains("plain text", "Markdown");
        assertThat(capabilities("TeleGram")).isEqualTo(telegram);
        assertThat(capabilities("carrier-pigeon"))
                .isEqualTo(
                        "## Channel Capabilities\n" + ChannelGuidance.defaults().fallback());
    }

    // SPEC SP-1
    @Test
    void channelContextNamesTheReplyTargetAndTheScheduledDeliveryTarget() {
        BuiltPrompt p = builder(CLOCK)
                .build(PromptContext.builder(ws)
                        .channel("telegram")
                        .replyTarget("12345678")
                        .chatType(ChatType.GROUP)
                        .build());
        assertThat(p.section("Channel Context").orElseThrow().text()).isEqualTo("""
                ## Channel Context
                channel=telegram, reply_target=12345678, chat_type=group
                To deliver a scheduled task (cron_add) to this conversation, \
                use delivery={"channel":"telegram","to":"12345678"}""");
        BuiltPrompt quoted = builder(CLOCK)
                .build(PromptContext.builder(ws)
                        .channel("api")
                        .replyTarget("a\"b")
                        .build());
        assertThat(quoted.text()).contains("delivery={\"channel\":\"api\",\"to\":\"a\\\"b\"}");
    }

    // SPEC SP-1
    @Test
    void skillsAreListedInFullOrCompactForm() {
        List<Skill> skills = List.of(
                new Skill("deploy", "Deploy the site.\nSteps: build, upload, verify."),
                new Skill("long", "y".repeat(300)));
        PromptContext ctx = PromptContext.builder(ws).skills(skills).build();
        String full = builder(CLOCK).build(ctx).section("Skills").orElseThrow().text();
        assertThat(full).contains("- deploy: Deploy the site.\n  Steps: build, upload, verify.", "y".repeat(300));
        String compact = new SystemPromptBuilder(CLOCK, BERLIN, "h", SkillsMode.COMPACT, ChannelGuidance.defaults())
                .build(ctx)
                .section("Skills")
                .orElseThrow()
                .text();
        assertThat(compact)
                .contains("- deploy: Deploy the site.")
                .doesNotContain("Steps:")
                .contains("- long: " + "y".repeat(97) + "...")
                .doesNotContain("y".repeat(98));
    }

    // SPEC ME-4
    @Test
    void memoryContextIsTheLastSectionAndOnlyWhenThereAreMemories() {
        PromptContext ctx = PromptContext.builder(ws)
                .channel("telegram")
                .replyTarget("1")
                .memory(List.of(
                        new MemoryLine("pref_tea", "Alice drinks\ngreen tea"),
                        new MemoryLine("pet", "a cat named Miso")))
                .build();
        BuiltPrompt p = builder(CLOCK).build(ctx);
        assertThat(p.sections().getLast().name()).isEqualTo("Memory Context");
        assertThat(p.text())
                .endsWith("\n\n[Memory context]\n- pref_tea: Alice drinks green tea\n- pet: a cat named Miso");
        assertThat(p.text().indexOf("Miso")).isEqualTo(p.text().lastIndexOf("Miso"));
        assertThat(builder(CLOCK).build(ctx.withMemory(List.of())).text()).doesNotContain("[Memory context]", "Miso");
    }

    private String capabilities(String channel) {
        return builder(CLOCK)
                .build(PromptContext.builder(ws)
                        .channel(channel)
                        .replyTarget("r")
                        .build())
                .section("Channel Capabilities")
                .orElseThrow()
                .text();
    }
}

package dev.clawgate.core.prompt;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.internal.prompt.Skill;
import dev.clawgate.core.internal.prompt.SkillsMode;
import dev.clawgate.core.internal.prompt.WorkspaceSkills;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Builds the system prompt in SPEC SP-1's order: Tools, Hardware, Your Task, Safety, Skills, Workspace, Project
 * Context, Current Date &amp; Time, Runtime, Channel Capabilities, Channel Context, then the memory context (SPEC
 * ME-4). Sections with nothing to say are left out. {@link SystemPromptCache} keeps the stable part per session (SPEC
 * SP-2).
 */
public final class SystemPromptBuilder {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    /** A compact skill line is cut here: enough to recognise the skill, short enough for dozens of them. */
    static final int COMPACT_SKILL_CHARS = 100;

    private final Clock clock;
    private final ZoneId zone;
    private final String host;
    private final String os;
    private final java.util.function.Supplier<SkillsMode> skillsMode;
    private final ChannelGuidance guidance;

    public SystemPromptBuilder(Clock clock, ZoneId zone, String host, SkillsMode skillsMode, ChannelGuidance guidance) {
        this(clock, zone, host, constant(Objects.requireNonNull(skillsMode, "skillsMode")), guidance);
    }

    /** @param skillsMode read each time a session's prompt is built, so a reloaded {@code agent.skills_mode} applies */
    public SystemPromptBuilder(
            Clock clock,
            ZoneId zone,
            String host,
            java.util.function.Supplier<SkillsMode> skillsMode,
            ChannelGuidance guidance) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.zone = Objects.requireNonNull(zone, "zone");
        this.host = host == null || host.isBlank() ? "unknown" : host;
        this.skillsMode = Objects.requireNonNull(skillsMode, "skillsMode");
        this.guidance = Objects.requireNonNull(guidance, "guidance");
        this.os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                + System.getProperty("os.arch") + ")";
    }

    /** A builder for this machine: its host name, full skills, no channel-specific guidance. */
    public static SystemPromptBuilder create(Clock clock, ZoneId zone) {
        return new SystemPromptBuilder(clock, zone, localHostName(), SkillsMode.FULL, ChannelGuidance.defaults());
    }

    /** A builder for this machine whose skills mode is read from {@code skillsMode} (the config in force). */
    public static SystemPromptBuilder create(
            Clock clock, ZoneId zone, java.util.function.Supplier<SkillsMode> skillsMode) {
        return create(clock, zone, skillsMode, ChannelGuidance.defaults());
    }

    /** As {@link #create(Clock, ZoneId, java.util.function.Supplier)}, with each channel's own formatting guidance. */
    public static SystemPromptBuilder create(
            Clock clock, ZoneId zone, java.util.function.Supplier<SkillsMode> skillsMode, ChannelGuidance guidance) {
        return new SystemPromptBuilder(clock, zone, localHostName(), skillsMode, guidance);
    }

    private static java.util.function.Supplier<SkillsMode> constant(SkillsMode mode) {
        return () -> mode;
    }

    /** The whole prompt, built from scratch. */
    public BuiltPrompt build(PromptContext ctx) {
        return complete(stable(ctx), ctx);
    }

    /** Every section that does not change within a session; reads the bootstrap files and the workspace's skills. */
    StablePrompt stable(PromptContext ctx) {
        List<Skill> skills = new ArrayList<>(ctx.skills());
        skills.addAll(WorkspaceSkills.read(ctx.workspace()));
        List<PromptSection> before = new ArrayList<>();
        before.add(new PromptSection(PromptSection.TOOLS, ToolsSection.render(ctx.tools(), ctx.nativeTools())));
        if (ctx.hardwareTools()) before.add(new PromptSection(PromptSection.HARDWARE, StandingInstructions.hardware()));
        before.add(new PromptSection(
                PromptSection.TASK,
                StandingInstructions.task(ctx.nativeTools(), !ctx.tools().isEmpty())));
        before.add(new PromptSection(PromptSection.SAFETY, StandingInstructions.safety()));
        if (!skills.isEmpty()) before.add(new PromptSection(PromptSection.SKILLS, skills(skills, skillsMode.get())));
        before.add(new PromptSection(
                PromptSection.WORKSPACE,
                "## Workspace\nYour working directory is " + ctx.workspace()
                        + ". File tools take paths relative to it and cannot reach outside it; shell commands "
                        + "run in it."));
        String project = projectContext(ctx.workspace());
        if (project != null) before.add(new PromptSection(PromptSection.PROJECT_CONTEXT, project));

        List<PromptSection> after = new ArrayList<>();
        after.add(new PromptSection(
                PromptSection.RUNTIME,
                "## Runtime\nHost: " + host + "\nOS: " + os
                        + "\nModel: " + (ctx.model() == null ? "the provider's default" : ctx.model())
                        + (ctx.provider() == null ? "" : "\nProvider: " + ctx.provider())));
        if (ctx.channel() != null) {
            after.add(new PromptSection(
                    PromptSection.CHANNEL_CAPABILITIES,
                    "## Channel Capabilities\n" + guidance.forChannel(ctx.channel())));
            after.add(new PromptSection(PromptSection.CHANNEL_CONTEXT, channelContext(ctx)));
        }
        return new StablePrompt(before, after);
    }

    /** The stable part with this moment's date/time and this turn's memories put in. */
    BuiltPrompt complete(StablePrompt stable, PromptContext ctx) {
        List<PromptSection> all = new ArrayList<>(stable.beforeDate());
        all.add(new PromptSection(PromptSection.DATE_TIME, dateTime()));
        all.addAll(stable.afterDate());
        if (!ctx.memory().isEmpty()) all.add(new PromptSection(PromptSection.MEMORY, memory(ctx.memory())));
        return BuiltPrompt.of(all);
    }

    private static String skills(List<Skill> skills, SkillsMode mode) {
        StringBuilder sb = new StringBuilder("## Skills\nYou have these skills");
        boolean files = skills.stream().anyMatch(s -> s.location() != null);
        sb.append(
                files && mode == SkillsMode.COMPACT
                        ? " (read a skill's file with file_read before you use it):\n"
                        : ":\n");
        for (Skill s : skills) {
            sb.append("- ").append(s.name());
            String d = mode == SkillsMode.FULL ? s.description() : compact(s.description());
            if (!d.isEmpty()) sb.append(": ").append(d.replace("\n", "\n  "));
            if (s.location() != null && mode == SkillsMode.COMPACT)
                sb.append(" (").append(s.location()).append(')');
            sb.append('\n');
        }
        return sb.toString().stripTrailing();
    }

    private static String compact(String description) {
        String first = description.lines().findFirst().orElse("").strip();
        return first.length() <= COMPACT_SKILL_CHARS ? first : first.substring(0, COMPACT_SKILL_CHARS - 3) + "...";
    }

    private static String projectContext(Path workspace) {
        List<BootstrapFiles.Loaded> files = BootstrapFiles.read(workspace);
        if (files.isEmpty()) return null;
        StringBuilder sb = new StringBuilder("## Project Context\n"
                + "These files from your workspace describe who you are, who you work with and how.\n");
        for (BootstrapFiles.Loaded f : files) {
            sb.append("\n### ")
                    .append(f.name())
                    .append('\n')
                    .append(f.text().stripTrailing())
                    .append('\n');
            if (f.cut()) {
                sb.append("[... ")
                        .append(f.name())
                        .append(" is longer: cut at ")
                        .append(BootstrapFiles.MAX_CHARS)
                        .append(" characters]\n");
            }
        }
        return sb.toString().stripTrailing();
    }

    private String dateTime() {
        ZonedDateTime now = ZonedDateTime.ofInstant(clock.instant(), zone);
        String offset =
                now.getOffset().getId().equals("Z") ? "+00:00" : now.getOffset().getId();
        return "## Current Date & Time\n" + WHEN.format(now) + " ("
                + now.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + "), time zone " + zone.getId()
                + " (UTC" + offset + ")";
    }

    private static String channelContext(PromptContext ctx) {
        StringBuilder sb = new StringBuilder("## Channel Context\nchannel=").append(ctx.channel());
        if (ctx.replyTarget() != null) sb.append(", reply_target=").append(ctx.replyTarget());
        if (ctx.chatType() != null)
            sb.append(", chat_type=").append(ctx.chatType().wireName());
        if (ctx.replyTarget() != null) {
            ObjectNode delivery = JsonNodeFactory.instance.objectNode();
            delivery.put("channel", ctx.channel());
            delivery.put("to", ctx.replyTarget());
            sb.append("\nTo deliver a scheduled task (cron_add) to this conversation, use delivery=")
                    .append(delivery);
        }
        return sb.toString();
    }

    private static String memory(List<MemoryLine> lines) {
        StringBuilder sb = new StringBuilder("[Memory context]");
        for (MemoryLine m : lines) {
            // one memory per line, whatever the stored text holds
            sb.append("\n- ").append(oneLine(m.key())).append(": ").append(oneLine(m.content()));
        }
        return sb.toString();
    }

    private static String oneLine(String s) {
        return s.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** The host name without a DNS lookup when the system already knows it. */
    static String localHostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) return env.strip();
        try {
            Path etc = Path.of("/etc/hostname");
            if (Files.isReadable(etc)) {
                String s = Files.readString(etc).strip();
                if (!s.isEmpty()) return s;
            }
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}

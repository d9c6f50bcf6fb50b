package dev.clawgate.core.internal.tool.builtin;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxStatus;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxes;
import dev.clawgate.core.tool.Tool;
import java.util.ArrayList;
import java.util.List;

/** The file, shell, message, web and memory tools every agent gets (SPEC AG-5). */
public final class BuiltinTools {
    private BuiltinTools() {}

    /**
     * {@code file_read}, {@code file_write}, {@code file_list}, {@code message_send}, {@code web_fetch} (through
     * {@code web}), the memory tools when memory is enabled, and {@code shell} when its allowlist is not empty and
     * {@code shell} has a sandbox for it (SPEC AG-8: without one the model is not offered the tool at all).
     */
    public static List<Tool> create(
            ToolSettings settings, MemorySettings memory, ShellSandboxStatus shell, PublicWeb web) {
        List<Tool> tools = new ArrayList<>();
        tools.add(new FileReadTool(settings.maxResultChars()));
        tools.add(new FileWriteTool());
        tools.add(new FileListTool(settings.maxResultChars()));
        tools.add(new MessageSendTool());
        tools.add(new WebFetchTool(settings.maxResultChars(), web));
        if (memory.enabled()) {
            tools.add(new MemoryStoreTool(memory));
            tools.add(new MemoryRecallTool(settings.maxResultChars()));
            tools.add(new MemoryForgetTool());
        }
        if (!settings.shellAllowlist().isEmpty() && shell.sandbox().isPresent()) {
            tools.add(new ShellTool(settings, shell.sandbox().get()));
        }
        return List.copyOf(tools);
    }

    /**
     * {@link #create(ToolSettings, MemorySettings, ShellSandboxStatus, PublicWeb)} with the sandbox {@code settings}
     * select here and no HTTP client ({@code web_fetch} says so when called).
     */
    public static List<Tool> create(ToolSettings settings, MemorySettings memory) {
        return create(settings, memory, ShellSandboxes.select(settings, List.of()), PublicWeb.unavailable());
    }

    /**
     * {@code cron_add}, {@code cron_list} and {@code cron_remove} on {@code book} (SPEC AG-5), or none when
     * {@code cron.enabled} is false; {@code changed} is called after a job was added.
     */
    public static List<Tool> cron(
            dev.clawgate.core.cron.CronBook book,
            dev.clawgate.core.config.CronSettings settings,
            java.util.function.Supplier<dev.clawgate.core.config.CronSettings> current,
            java.time.Clock clock,
            Runnable changed) {
        if (!settings.enabled()) return List.of();
        return List.of(
                new CronAddTool(book, current, clock, changed), new CronListTool(book), new CronRemoveTool(book));
    }

    /** {@link #create(ToolSettings, MemorySettings)} with the default memory settings. */
    public static List<Tool> create(ToolSettings settings) {
        return create(settings, MemorySettings.defaults());
    }
}

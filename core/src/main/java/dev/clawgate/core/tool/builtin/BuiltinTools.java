package dev.clawgate.core.tool.builtin;

import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.tool.Tool;
import java.util.ArrayList;
import java.util.List;

/** The file and shell tools every agent gets (SPEC AG-5). */
public final class BuiltinTools {
    private BuiltinTools() {}

    /** {@code file_read}, {@code file_write}, {@code file_list}, and {@code shell} when its allowlist is not empty. */
    public static List<Tool> create(ToolSettings settings) {
        List<Tool> tools = new ArrayList<>();
        tools.add(new FileReadTool(settings.maxResultChars()));
        tools.add(new FileWriteTool());
        tools.add(new FileListTool(settings.maxResultChars()));
        if (!settings.shellAllowlist().isEmpty()) tools.add(new ShellTool(settings));
        return List.copyOf(tools);
    }
}

package dev.clawgate.core.prompt;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.provider.ToolSpec;
import java.nio.file.Path;
import java.util.List;

/**
 * What a cached prompt must match to be reused (SPEC SP-2): the inputs whose change would make its text wrong. Skills
 * and bootstrap files are not here: they refresh only with a new session.
 */
record PromptShape(
        List<String> toolNames,
        boolean nativeTools,
        boolean hardwareTools,
        Path workspace,
        String model,
        String provider,
        String channel,
        String replyTarget,
        ChatType chatType) {

    static PromptShape of(PromptContext ctx) {
        return new PromptShape(
                ctx.tools().stream().map(ToolSpec::name).toList(),
                ctx.nativeTools(),
                ctx.hardwareTools(),
                ctx.workspace(),
                ctx.model(),
                ctx.provider(),
                ctx.channel(),
                ctx.replyTarget(),
                ctx.chatType());
    }
}

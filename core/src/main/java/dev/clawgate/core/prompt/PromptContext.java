package dev.clawgate.core.prompt;

import dev.clawgate.core.internal.prompt.Skill;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.provider.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one turn's system prompt is built from (SPEC SP-1).
 *
 * @param nativeTools whether the provider calls tools natively; if not, the prompt carries the {@code <tool_call>}
 *     protocol (SPEC SP-3)
 * @param hardwareTools whether any tool drives hardware; adds the Hardware section
 * @param model the model name, or null for the provider's default
 * @param channel e.g. {@code telegram}; null when the turn has no channel (then no channel sections)
 * @param replyTarget the chat to answer in, and where scheduled tasks are delivered
 * @param memory recalled memories, already filtered (SPEC ME-3); empty = no memory section
 */
public record PromptContext(
        List<ToolSpec> tools,
        boolean nativeTools,
        boolean hardwareTools,
        Path workspace,
        String model,
        String provider,
        String channel,
        String replyTarget,
        ChatType chatType,
        List<Skill> skills,
        List<MemoryLine> memory) {
    public PromptContext {
        tools = tools == null ? List.of() : List.copyOf(tools);
        skills = skills == null ? List.of() : List.copyOf(skills);
        memory = memory == null ? List.of() : List.copyOf(memory);
        Objects.requireNonNull(workspace, "workspace");
        workspace = workspace.toAbsolutePath().normalize();
    }

    public static Builder builder(Path workspace) {
        return new Builder(workspace);
    }

    /** The same context with this turn's recalled memories. */
    public PromptContext withMemory(List<MemoryLine> recalled) {
        return new PromptContext(
                tools,
                nativeTools,
                hardwareTools,
                workspace,
                model,
                provider,
                channel,
                replyTarget,
                chatType,
                skills,
                recalled);
    }

    /** Fills a context field by field; everything but the workspace is optional. */
    public static final class Builder {
        private final Path workspace;
        private List<ToolSpec> tools = List.of();
        private boolean nativeTools = true;
        private boolean hardwareTools;
        private String model;
        private String provider;
        private String channel;
        private String replyTarget;
        private ChatType chatType = ChatType.DIRECT;
        private List<Skill> skills = List.of();
        private List<MemoryLine> memory = List.of();

        private Builder(Path workspace) {
            this.workspace = workspace;
        }

        public Builder tools(List<ToolSpec> v) {
            tools = v;
            return this;
        }

        public Builder nativeTools(boolean v) {
            nativeTools = v;
            return this;
        }

        public Builder hardwareTools(boolean v) {
            hardwareTools = v;
            return this;
        }

        public Builder model(String v) {
            model = v;
            return this;
        }

        public Builder provider(String v) {
            provider = v;
            return this;
        }

        public Builder channel(String v) {
            channel = v;
            return this;
        }

        public Builder replyTarget(String v) {
            replyTarget = v;
            return this;
        }

        public Builder chatType(ChatType v) {
            chatType = v;
            return this;
        }

        public Builder skills(List<Skill> v) {
            skills = v;
            return this;
        }

        public Builder memory(List<MemoryLine> v) {
            memory = v;
            return this;
        }

        public PromptContext build() {
            return new PromptContext(
                    tools,
                    nativeTools,
                    hardwareTools,
                    workspace,
                    model,
                    provider,
                    channel,
                    replyTarget,
                    chatType,
                    skills,
                    memory);
        }
    }
}

package dev.clawgate.core.config;

import dev.clawgate.core.internal.prompt.SkillsMode;
import dev.clawgate.core.internal.toolcall.ReasoningTags;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code [agent]}.
 *
 * @param provider the provider name under {@code [providers]}; null = the only one configured
 * @param model the default model; null = the provider's default
 * @param skillsMode {@code agent.skills_mode}: how much of each workspace skill the prompt shows (SPEC SP-1)
 * @param reasoningTags {@code agent.reasoning_tags}: the tag names models write reasoning in (SPEC RP-2, RP-4)
 */
public record AgentSettings(
        String provider,
        String model,
        int maxToolIterations,
        int messageTimeoutSecs,
        int timeoutScaleCap,
        Path workspace,
        boolean showToolCalls,
        List<String> fallback,
        SkillsMode skillsMode,
        ReasoningTags reasoningTags) {
    public AgentSettings {
        fallback = fallback == null ? List.of() : List.copyOf(fallback);
        skillsMode = skillsMode == null ? SkillsMode.FULL : skillsMode;
        reasoningTags = reasoningTags == null ? ReasoningTags.DEFAULT : reasoningTags;
    }

    public AgentSettings(
            String provider,
            String model,
            int maxToolIterations,
            int messageTimeoutSecs,
            int timeoutScaleCap,
            Path workspace,
            boolean showToolCalls,
            List<String> fallback,
            SkillsMode skillsMode) {
        this(
                provider,
                model,
                maxToolIterations,
                messageTimeoutSecs,
                timeoutScaleCap,
                workspace,
                showToolCalls,
                fallback,
                skillsMode,
                ReasoningTags.DEFAULT);
    }

    public AgentSettings(
            String provider,
            String model,
            int maxToolIterations,
            int messageTimeoutSecs,
            int timeoutScaleCap,
            Path workspace,
            boolean showToolCalls,
            List<String> fallback) {
        this(
                provider,
                model,
                maxToolIterations,
                messageTimeoutSecs,
                timeoutScaleCap,
                workspace,
                showToolCalls,
                fallback,
                SkillsMode.FULL);
    }

    public static AgentSettings defaults() {
        return new AgentSettings(
                null, null, 10, 300, 4, Path.of("workspace"), false, List.of(), SkillsMode.FULL, ReasoningTags.DEFAULT);
    }

    /**
     * The whole-turn time budget (SPEC DI-6): the per-message timeout (at least 30 s) times min(max(iterations, 1),
     * scale cap).
     */
    public long turnBudgetSecs() {
        long base = Math.max(messageTimeoutSecs, 30);
        return base * Math.min(Math.max(maxToolIterations, 1), Math.max(timeoutScaleCap, 1));
    }
}

package dev.clawgate.core.provider;

/** Tokens a model call used, as the provider reported them (0 when unknown). */
public record Usage(long promptTokens, long completionTokens, long reasoningTokens) {
    public static final Usage NONE = new Usage(0, 0, 0);

    public Usage plus(Usage o) {
        return new Usage(
                promptTokens + o.promptTokens,
                completionTokens + o.completionTokens,
                reasoningTokens + o.reasoningTokens);
    }
}

package dev.clawgate.core.config;

/**
 * {@code [providers.<name>]}.
 *
 * @param kind the wire format: {@code openai} (any OpenAI-compatible server), {@code anthropic}, {@code gemini}, or
 *     {@code cli} (a local agent program run as a process)
 * @param apiKey null when not configured (an unset {@code ${VAR}} leaves it null)
 * @param nativeTools null = the provider decides; false = prompt-guided tool calls (SPEC SP-3)
 * @param defaultModel the model to use when neither agent nor route names one
 * @param maxTokens the most tokens one answer may take, or null for the provider's default (the Anthropic Messages API
 *     requires a value, so that provider has one)
 * @param vision whether the model takes images; null = the kind's default (SPEC AG-4, HI-3: without vision, image
 *     markers are removed from what the model is sent)
 * @param unconfigured why the provider must not be used, or null when it may: its {@code api_key} names a variable that
 *     is unset or empty (SPEC OP-6, README: such a provider is unconfigured, even a local server that would answer
 *     without a key)
 * @param cli the keys of a {@code kind = "cli"} provider; null for every other kind
 */
public record ProviderSettings(
        String name,
        String kind,
        String baseUrl,
        String apiKey,
        Boolean nativeTools,
        String defaultModel,
        int timeoutSecs,
        Integer maxTokens,
        Boolean vision,
        String unconfigured,
        CliProviderSettings cli) {
    public ProviderSettings(
            String name,
            String kind,
            String baseUrl,
            String apiKey,
            Boolean nativeTools,
            String defaultModel,
            int timeoutSecs,
            Integer maxTokens,
            Boolean vision,
            String unconfigured) {
        this(
                name,
                kind,
                baseUrl,
                apiKey,
                nativeTools,
                defaultModel,
                timeoutSecs,
                maxTokens,
                vision,
                unconfigured,
                null);
    }

    public ProviderSettings(
            String name,
            String kind,
            String baseUrl,
            String apiKey,
            Boolean nativeTools,
            String defaultModel,
            int timeoutSecs,
            Integer maxTokens,
            Boolean vision) {
        this(name, kind, baseUrl, apiKey, nativeTools, defaultModel, timeoutSecs, maxTokens, vision, null);
    }

    public ProviderSettings(
            String name,
            String kind,
            String baseUrl,
            String apiKey,
            Boolean nativeTools,
            String defaultModel,
            int timeoutSecs,
            Integer maxTokens) {
        this(name, kind, baseUrl, apiKey, nativeTools, defaultModel, timeoutSecs, maxTokens, null);
    }

    public ProviderSettings(
            String name,
            String kind,
            String baseUrl,
            String apiKey,
            Boolean nativeTools,
            String defaultModel,
            int timeoutSecs) {
        this(name, kind, baseUrl, apiKey, nativeTools, defaultModel, timeoutSecs, null);
    }
}

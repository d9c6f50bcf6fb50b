package dev.clawgate.core.config;

/**
 * {@code [providers.<name>]}.
 *
 * @param kind         the wire format: {@code openai} (any OpenAI-compatible server) or {@code anthropic}
 * @param apiKey       null when not configured (an unset {@code ${VAR}} leaves it null)
 * @param nativeTools  null = the provider decides; false = prompt-guided tool calls (SPEC SP-3)
 * @param defaultModel the model to use when neither agent nor route names one
 * @param maxTokens    the most tokens one answer may take, or null for the provider's default
 *                     (the Anthropic Messages API requires a value, so that provider has one)
 * @param vision       whether the model takes images; null = the kind's default (SPEC AG-4, HI-3: without
 *                     vision, image markers are removed from what the model is sent)
 */
public record ProviderSettings(String name, String kind, String baseUrl, String apiKey, Boolean nativeTools,
                               String defaultModel, int timeoutSecs, Integer maxTokens, Boolean vision) {
    public ProviderSettings(String name, String kind, String baseUrl, String apiKey, Boolean nativeTools,
                            String defaultModel, int timeoutSecs, Integer maxTokens) {
        this(name, kind, baseUrl, apiKey, nativeTools, defaultModel, timeoutSecs, maxTokens, null);
    }

    public ProviderSettings(String name, String kind, String baseUrl, String apiKey, Boolean nativeTools,
                            String defaultModel, int timeoutSecs) {
        this(name, kind, baseUrl, apiKey, nativeTools, defaultModel, timeoutSecs, null);
    }
}

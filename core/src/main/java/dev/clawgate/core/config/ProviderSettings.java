package dev.clawgate.core.config;

/**
 * {@code [providers.<name>]}.
 *
 * @param kind        {@code openai} (any OpenAI-compatible server) for now
 * @param apiKey      null when not configured (an unset {@code ${VAR}} leaves it null)
 * @param nativeTools null = the provider decides; false = prompt-guided tool calls (SPEC SP-3)
 * @param defaultModel the model to use when neither agent nor route names one
 */
public record ProviderSettings(String name, String kind, String baseUrl, String apiKey, Boolean nativeTools,
                               String defaultModel, int timeoutSecs) {}

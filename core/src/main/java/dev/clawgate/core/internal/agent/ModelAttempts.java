package dev.clawgate.core.internal.agent;

/**
 * Told of every model call attempt the {@link ModelCaller} makes, so each step of a retry or a fallback chain can be
 * counted (SPEC SP-4: each attempt visible in the logs and the metrics).
 */
@FunctionalInterface
public interface ModelAttempts {
    ModelAttempts NONE = (provider, model, outcome) -> {};

    /**
     * @param outcome {@code ok}, {@code cancelled}, or the failure's kind in lower case ({@code transient},
     *     {@code rate_limited}, {@code context_overflow}, {@code auth}, ...)
     */
    void attempted(String provider, String model, String outcome);
}

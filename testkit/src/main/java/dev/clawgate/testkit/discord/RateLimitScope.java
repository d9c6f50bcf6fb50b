package dev.clawgate.testkit.discord;

/**
 * Whose limit a 429 is (developers/topics/rate-limits, "Header Format": {@code X-RateLimit-Scope}): the bot's per-route
 * limit, the resource's limit shared by everyone, or the bot's global limit.
 */
public enum RateLimitScope {
    USER,
    SHARED,
    GLOBAL
}

package dev.clawgate.core.config;

/**
 * {@code [dispatch]} (SPEC DI-1, DI-2).
 *
 * @param maxInFlight 0 = clamp(channels × 4, 8, 64)
 */
public record DispatchSettings(int busCapacity, int maxInFlight) {
    public static DispatchSettings defaults() {
        return new DispatchSettings(100, 0);
    }

    /** Runs per channel in the DI-2 formula. */
    public static final int PER_CHANNEL = 4;

    /** SPEC DI-2: clamp(channels × 4, 8, 64) unless configured. */
    public int effectiveMaxInFlight(int channelCount) {
        return effectiveMaxInFlight(channelCount, PER_CHANNEL);
    }

    /** clamp(channels × perChannel, 8, 64) unless configured. */
    public int effectiveMaxInFlight(int channelCount, int perChannel) {
        if (maxInFlight > 0) return maxInFlight;
        return Math.max(8, Math.min(64, channelCount * Math.max(perChannel, 1)));
    }
}

package dev.clawgate.core.config;

/**
 * {@code [multimodal]} (SPEC AG-4).
 *
 * @param allowRemoteFetch fetch remote image URLs for the model (public addresses only); off by default
 * @param maxImages the most images one model call carries, the newest first
 * @param maxImageBytes the largest image inlined
 */
public record MultimodalSettings(boolean allowRemoteFetch, int maxImages, long maxImageBytes) {
    public MultimodalSettings {
        if (maxImages < 0)
            throw new IllegalArgumentException("multimodal.max_images must be zero or more, got " + maxImages);
        if (maxImageBytes < 1)
            throw new IllegalArgumentException("multimodal.max_image_bytes must be positive, got " + maxImageBytes);
    }

    public static MultimodalSettings defaults() {
        return new MultimodalSettings(false, 5, 10L * 1024 * 1024);
    }
}

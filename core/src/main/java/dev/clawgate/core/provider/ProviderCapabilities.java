package dev.clawgate.core.provider;

/** What a provider can do; the pipeline adapts the request to it. */
public record ProviderCapabilities(boolean nativeTools, boolean vision, boolean streaming) {}

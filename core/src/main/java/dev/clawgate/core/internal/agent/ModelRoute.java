package dev.clawgate.core.internal.agent;

import dev.clawgate.core.provider.Provider;

/** A provider and the model to ask on it; {@code nativeTools} decides how tools are offered (SPEC SP-3). */
public record ModelRoute(Provider provider, String model, boolean nativeTools) {}

package dev.clawgate.server.config;

import dev.clawgate.core.config.MultimodalSettings;

/** Reads {@code [multimodal]} (SPEC AG-4). */
final class MultimodalSection {
    private MultimodalSection() {}

    static MultimodalSettings read(TableReader t) {
        MultimodalSettings d = MultimodalSettings.defaults();
        return new MultimodalSettings(
                t.bool("allow_remote_fetch", d.allowRemoteFetch()),
                t.integer("max_images", d.maxImages(), 0, 100),
                t.longInteger("max_image_bytes", d.maxImageBytes(), 1, 100L * 1024 * 1024));
    }
}

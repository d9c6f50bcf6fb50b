package dev.clawgate.core.prompt;

import java.util.Objects;

/** One recalled memory as the memory context shows it: {@code - key: content} (SPEC ME-4). */
public record MemoryLine(String key, String content) {
    public MemoryLine {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(content, "content");
    }
}

package dev.clawgate.core.internal.render;

/**
 * Receives the blocks of a streamed reply, in order (SPEC OUT-2). Should hand off quickly: it is called under a lock.
 */
@FunctionalInterface
public interface BlockSink {
    void send(String block);
}

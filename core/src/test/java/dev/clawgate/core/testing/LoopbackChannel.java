package dev.clawgate.core.testing;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;

/** A channel whose adapter talks HTTP to a {@link LoopbackPlatform}: turn tests whose sends cross a real socket. */
public final class LoopbackChannel implements Channel {
    private final String name;
    private final LoopbackAdapter adapter;

    public LoopbackChannel(String name, LoopbackAdapter adapter) {
        this.name = name;
        this.adapter = adapter;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start(InboundSink sink) {}

    @Override
    public void stop() {}

    @Override
    public LoopbackAdapter messageAdapter() {
        return adapter;
    }
}

package dev.clawgate.provider.testing;

import dev.clawgate.core.provider.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every text and reasoning delta a provider reported, in order. */
public final class RecordingObserver implements StreamObserver {
    public final List<String> text = new CopyOnWriteArrayList<>();
    public final List<String> reasoning = new CopyOnWriteArrayList<>();

    @Override
    public void onTextDelta(String delta) {
        text.add(delta);
    }

    @Override
    public void onReasoningDelta(String delta) {
        reasoning.add(delta);
    }
}

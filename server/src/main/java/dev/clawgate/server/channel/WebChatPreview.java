package dev.clawgate.server.channel;

import dev.clawgate.core.outbound.LiveDraftStream;
import dev.clawgate.core.outbound.LivePreview;
import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The live preview of one web chat reply (SPEC OUT-9): {@link #start} shows an empty draft at once (the page shows it
 * as {@code ...}), and later frames edit it with the whole text so far, at most once per interval; with
 * {@code /reasoning stream} (RP-4) the reasoning so far rides along in the same frames. {@link #finish} drops any
 * pending edit and hands the draft's id to the final reply, which replaces the draft.
 */
final class WebChatPreview extends LiveDraftStream {
    private final String replyTo;
    private final String draftId;
    private final Consumer<String> frames;
    /** Written by the preview's calls (one at a time), read after {@link #finish}. */
    private volatile boolean shown;

    WebChatPreview(
            String replyTo,
            String draftId,
            Duration interval,
            Scheduler scheduler,
            Executor io,
            Consumer<String> frames) {
        super(interval, scheduler, io);
        this.replyTo = replyTo;
        this.draftId = draftId;
        this.frames = frames;
    }

    @Override
    protected LivePreview.Shown show(LivePreview.Draft draft) {
        String reasoning = draft.reasoning().isEmpty() ? null : draft.reasoning();
        frames.accept(WebChatFrames.preview(shown ? "edit" : "draft", replyTo, draftId, draft.text(), reasoning));
        shown = true;
        return LivePreview.Shown.OK;
    }

    /** Stops the preview: a pending edit is discarded. Returns the draft's id, or null when no draft was shown. */
    String finish() {
        stopPreview();
        return shown ? draftId : null;
    }
}

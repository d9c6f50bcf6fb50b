package dev.clawgate.core.outbound;

import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * A reply stream a channel shows as one live draft (SPEC OUT-9, RP-4): the text and reasoning go to a
 * {@link LivePreview}, which calls {@link #show} at most once per interval; a channel writes only {@link #show}, the
 * first call sending the draft and later ones editing it.
 */
public abstract class LiveDraftStream implements ReplyStream {
    private final LivePreview preview;

    /** @param io where {@link #show} runs, one call at a time */
    protected LiveDraftStream(Duration interval, Scheduler scheduler, Executor io) {
        // show runs only after start or a delta, so a subclass's fields are set by then
        this.preview = new LivePreview(this::show, interval, scheduler, io);
    }

    /** Shows the draft now, before the model's first token (SPEC OUT-9). */
    public final void start() {
        preview.start();
    }

    @Override
    public final void delta(String delta) {
        preview.delta(delta);
    }

    @Override
    public final void reasoning(String delta) {
        preview.reasoning(delta);
    }

    /** Stops updating: a pending update is dropped, and a {@link #show} in flight is waited for. */
    protected final void stopPreview() {
        preview.finish(LivePreview.FINISH_WAIT);
    }

    /** One draft send or edit on the platform. */
    protected abstract LivePreview.Shown show(LivePreview.Draft draft);
}

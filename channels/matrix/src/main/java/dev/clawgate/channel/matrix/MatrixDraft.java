package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.LiveDraftStream;
import dev.clawgate.core.outbound.LivePreview;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live preview of one reply in a room (SPEC OUT-9, {@code stream_mode = "preview"}): {@link #start} sends a
 * {@code ...} draft at once (in the reply's thread), later calls replace it with the text so far by {@code m.replace}
 * edits ("Event replacements": {@code m.new_content}), at most once per interval. {@link #finish} drops pending updates
 * and hands the draft's event id to the finaliser.
 */
final class MatrixDraft extends LiveDraftStream {
    private static final Logger log = LoggerFactory.getLogger(MatrixDraft.class);
    static final String PLACEHOLDER = "...";

    private final MatrixBot bot;
    private final RoomSender sender;
    private final OutboundTarget target;
    private volatile String eventId;

    MatrixDraft(
            MatrixBot bot,
            RoomSender sender,
            OutboundTarget target,
            Duration interval,
            Scheduler scheduler,
            Executor io) {
        super(interval, scheduler, io);
        this.bot = bot;
        this.sender = sender;
        this.target = target;
    }

    /** Stops updating (pending text is dropped); the draft's event id, or null when none is visible. */
    String finish() {
        stopPreview();
        return eventId;
    }

    OutboundTarget target() {
        return target;
    }

    /**
     * The content of an edit of {@code original} to {@code replacement}: the fallback body "* ...", then
     * {@code m.new_content}.
     */
    static ObjectNode edit(String original, ObjectNode replacement) {
        ObjectNode c = replacement.deepCopy();
        c.put("body", "* " + replacement.path("body").asText());
        if (c.has("formatted_body"))
            c.put("formatted_body", "* " + replacement.path("formatted_body").asText());
        c.set("m.new_content", replacement);
        c.putObject("m.relates_to").put("rel_type", "m.replace").put("event_id", original);
        return c;
    }

    @Override
    protected LivePreview.Shown show(LivePreview.Draft draft) {
        String text = draft.text().isBlank() ? PLACEHOLDER : head(draft.text().strip(), bot.account.textLimit());
        ObjectNode plain =
                MatrixApi.JSON.createObjectNode().put("msgtype", "m.text").put("body", text);
        try {
            if (eventId == null) {
                RoomSender.relate(plain, target, false);
                eventId = sender.send(
                        target.replyTarget(), "m.room.message", sender.freshTxnId("draft"), plain, CancelToken.none());
            } else {
                sender.send(
                        target.replyTarget(),
                        "m.room.message",
                        sender.freshTxnId("draft-edit"),
                        edit(eventId, plain),
                        CancelToken.none());
            }
            return LivePreview.Shown.OK;
        } catch (DeliveryException e) {
            if (e.retryAfter() != null) return LivePreview.Shown.retryAfter(e.retryAfter());
            // a draft whose send failed is not finalised; the final reply goes out normally
            log.info("matrix [{}]: live preview stopped: {}", bot.account.id(), e.getMessage());
            return LivePreview.Shown.STOP;
        }
    }

    /** The start of {@code s} in at most {@code max} UTF-16 units, an ellipsis marking a cut. */
    static String head(String s, int max) {
        if (s.length() <= max) return s;
        int end = max - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1))) end--;
        return s.substring(0, end) + "…";
    }
}

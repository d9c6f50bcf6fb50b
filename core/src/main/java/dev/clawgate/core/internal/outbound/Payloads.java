package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.internal.render.MediaReply;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.render.Chunker;
import dev.clawgate.core.render.MediaMarkers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one reply into the payloads its adapter sends: a final reply's (or streamed block's) media markers become media
 * (SPEC OUT-13), then the {@code on_message_sending} hook runs (unless the path opts out), then the text is cut to the
 * adapter's limit, then media follow (SPEC OUT-1, OUT-5). The same reply gives the same payloads, so a retry resumes at
 * the right one: the outbox keeps only the text, and the markers in it give the same media on every replay.
 */
public final class Payloads {
    private static final Logger log = LoggerFactory.getLogger(Payloads.class);

    /** The outcome of planning: what to send, or why nothing is. */
    public sealed interface Plan {
        record Send(List<OutboundMessage> parts) implements Plan {}

        record Suppress(SuppressionReason reason, String detail) implements Plan {}
    }

    /**
     * Where marker paths may point (SPEC OUT-13, AG-5's rules).
     *
     * @param workspace the agent's workspace, read at each plan (the config can change)
     * @param dataDir the gateway's data dir, or null
     */
    public record MediaRoots(Supplier<Path> workspace, Path dataDir) {}

    private final SendingHook hook;
    private final MediaRoots roots;

    /** @param roots where media markers may point; null: markers are not read (text only) */
    public Payloads(SendingHook hook, MediaRoots roots) {
        this.hook = hook == null ? SendingHook.PASS : hook;
        this.roots = roots;
    }

    public Payloads(SendingHook hook) {
        this(hook, null);
    }

    public Plan plan(OutboundMessage reply, MessageAdapter adapter) {
        String text = reply.text();
        List<MediaRef> media = new ArrayList<>(reply.media());
        boolean ofReply = reply.kind() == OutboundMessage.Kind.FINAL || reply.kind() == OutboundMessage.Kind.BLOCK;
        if (ofReply && roots != null) {
            MediaReply markers = MediaMarkers.extract(text, roots.workspace().get(), roots.dataDir());
            // SPEC OP-6: the marker is the model's text (a path it wrote): named at DEBUG only
            if (!markers.rejected().isEmpty()) {
                log.warn(
                        "turn {}: {} media marker(s) refused (path outside the workspace and data dir, or missing)",
                        reply.turnId(),
                        markers.rejected().size());
            }
            for (MediaReply.Rejected r : markers.rejected()) {
                log.debug("turn {}: media marker {} refused: {}", reply.turnId(), r.marker(), r.reason());
            }
            text = markers.text();
            markers.media().forEach(m -> media.add(MediaRef.of(m)));
        }
        if (!reply.options().skipSendingHooks()) {
            switch (hook.onMessageSending(text, reply.target())) {
                case SendingHook.Suppress s -> {
                    return new Plan.Suppress(SuppressionReason.CANCELLED_BY_MESSAGE_SENDING_HOOK, s.reason());
                }
                case SendingHook.Send s -> {
                    if ((s.text() == null || s.text().isBlank()) && !text.isBlank() && media.isEmpty()) {
                        return new Plan.Suppress(SuppressionReason.EMPTY_AFTER_MESSAGE_SENDING_HOOK, null);
                    }
                    text = s.text() == null ? "" : s.text();
                }
            }
        }
        if (text.isBlank() && media.isEmpty() && reply.payload() == null)
            return new Plan.Suppress(SuppressionReason.NO_VISIBLE_PAYLOAD, null);
        if (!media.isEmpty() && !adapter.capabilities().contains(Capability.MEDIA)) {
            text = new MediaReply(
                            text.strip(), media.stream().map(MediaRef::item).toList(), List.of())
                    .textWithoutMedia();
            media.clear();
        }
        List<OutboundMessage> parts = new ArrayList<>();
        if (!text.isBlank()) {
            for (String chunk : Chunker.split(text, adapter.chunkLimits())) {
                parts.add(reply.asPart(parts.size(), chunk, List.of()));
            }
        } else if (reply.payload() != null) {
            // a platform-native payload alone (a card): one message with no text
            parts.add(reply.asPart(0, "", List.of()));
        }
        for (MediaRef m : media) parts.add(reply.asPart(parts.size(), "", List.of(m)));
        return new Plan.Send(List.copyOf(parts));
    }
}

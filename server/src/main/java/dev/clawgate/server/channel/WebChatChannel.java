package dev.clawgate.server.channel;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.run.InboundChecks;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.TranscriptEntry;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web chat (SPEC CH-2): pages connected over WebSocket, one conversation per browser. The sender is the client id
 * the page keeps in localStorage (SPEC HI-1), so a reload continues the session. Connection-bound, like the API:
 * replies reach the pages of that client open at the time, and a reply no page received is still in the session history
 * the page loads.
 */
public final class WebChatChannel implements Channel {
    public static final String NAME = "webchat";
    /** SPEC OUT-1: the web chat's text limit, unless {@code channels.webchat.text_limit} says otherwise. */
    public static final int TEXT_LIMIT = 20_000;
    /** The largest {@code text_limit} the page is given: a message as long as the inbound limit. */
    public static final int MAX_TEXT_LIMIT = InboundChecks.MAX_TEXT_CHARS;

    private static final Logger log = LoggerFactory.getLogger(WebChatChannel.class);
    private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9_-]{8,64}");
    private static final Pattern USED_TOOLS = Pattern.compile("\\A\\[Used tools: [^\\]\\n]*]\\n");
    /**
     * SPEC OUT-9: how often a live preview is edited at most, unless {@code channels.webchat.preview_interval_ms} says
     * otherwise.
     */
    public static final Duration DEFAULT_PREVIEW_INTERVAL = Duration.ofMillis(250);

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.TEXT,
            Capability.MESSAGE_SENDING_HOOKS,
            Capability.DRAFT_PREVIEW,
            Capability.PREVIEW_FINALIZATION,
            Capability.FINAL_EDIT,
            Capability.DISCARD_PENDING,
            Capability.PREVIEW_RECEIPT));

    /**
     * The gateway's shared preview timer (a daemon thread that only hands work on) and bounded threads for page sends.
     */
    private static final class Timers {
        static final Scheduler PREVIEW = Scheduler.daemon("webchat-preview-timer");
        static final Executor IO = new dev.clawgate.core.run.BackgroundWork("webchat-preview", 64, 10_000);
    }

    /** One open page. Implementations keep frames in order and never throw. */
    public interface Connection {
        String clientId();

        /** False when the page is gone. */
        boolean send(String frame);

        void close(int code, String reason);
    }

    /** One message of the history a page shows. */
    public record HistoryItem(Role role, String text) {}

    private final Map<String, Set<Connection>> pages = new ConcurrentHashMap<>();
    private final Function<InboundMessage, List<TranscriptEntry>> transcript;
    private final AtomicLong sent = new AtomicLong();
    private final Map<OutboundTarget, WebChatPreview> previews = new ConcurrentHashMap<>();
    private final Supplier<Map<String, String>> options;
    private final Scheduler previewTimer;
    private final Executor io;
    private volatile InboundSink sink;

    /** @param transcript the recent transcript of the session a message from this client belongs to */
    public WebChatChannel(Function<InboundMessage, List<TranscriptEntry>> transcript) {
        this(transcript, Map::of);
    }

    /**
     * @param options {@code [channels.webchat]}'s keys, read at each reply so a config reload applies:
     *     {@code text_limit} (SPEC OUT-1) and {@code preview_interval_ms} (OUT-9)
     */
    public WebChatChannel(
            Function<InboundMessage, List<TranscriptEntry>> transcript, Supplier<Map<String, String>> options) {
        this(transcript, options, Timers.PREVIEW, Timers.IO);
    }

    /** @param previewTimer times preview edits (tests pass a manual one); @param io sends the preview's frames */
    public WebChatChannel(
            Function<InboundMessage, List<TranscriptEntry>> transcript,
            Supplier<Map<String, String>> options,
            Scheduler previewTimer,
            Executor io) {
        this.transcript = transcript;
        this.options = options;
        this.previewTimer = previewTimer;
        this.io = io;
        textLimit(options.get());
        previewInterval(options.get());
    }

    /**
     * {@code text_limit}: at least {@link ChunkLimits#MIN_UNITS}, at most {@link #MAX_TEXT_LIMIT}; a bad value is an
     * error naming the key.
     */
    public static int textLimit(Map<String, String> options) {
        String v = options.get("text_limit");
        if (v == null) return TEXT_LIMIT;
        int limit = integer(v, "text_limit");
        if (limit < ChunkLimits.MIN_UNITS || limit > MAX_TEXT_LIMIT) {
            throw new IllegalArgumentException("channels.webchat.text_limit must be between " + ChunkLimits.MIN_UNITS
                    + " and " + MAX_TEXT_LIMIT + ", got " + limit);
        }
        return limit;
    }

    /** {@code preview_interval_ms}: zero or more. */
    public static Duration previewInterval(Map<String, String> options) {
        String v = options.get("preview_interval_ms");
        if (v == null) return DEFAULT_PREVIEW_INTERVAL;
        int ms = integer(v, "preview_interval_ms");
        if (ms < 0)
            throw new IllegalArgumentException("channels.webchat.preview_interval_ms must be zero or more, got " + ms);
        return Duration.ofMillis(ms);
    }

    private static int integer(String v, String key) {
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("channels.webchat." + key + " must be an integer, got \"" + v + "\"");
        }
    }

    /** The current settings; a reloaded config that broke one keeps the default and says so. */
    private int currentTextLimit() {
        try {
            return textLimit(options.get());
        } catch (IllegalArgumentException e) {
            log.warn("{}; using {}", e.getMessage(), TEXT_LIMIT);
            return TEXT_LIMIT;
        }
    }

    private Duration currentPreviewInterval() {
        try {
            return previewInterval(options.get());
        } catch (IllegalArgumentException e) {
            log.warn("{}; using {} ms", e.getMessage(), DEFAULT_PREVIEW_INTERVAL.toMillis());
            return DEFAULT_PREVIEW_INTERVAL;
        }
    }

    /** Ends the live preview of {@code target}'s reply; the draft's id, or null when none was shown. */
    private String finishPreview(OutboundTarget target) {
        WebChatPreview preview = previews.remove(target);
        return preview == null ? null : preview.finish();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink sink) {
        this.sink = sink;
    }

    @Override
    public void stop() {
        pages.values().forEach(set -> set.forEach(c -> c.close(1001, "the gateway is stopping")));
        pages.clear();
    }

    @Override
    public boolean ownerChannel() {
        return true;
    }

    /** Each message gets its own reply and {@code done}, as on the terminal (SPEC DI-2). */
    @Override
    public boolean requestResponse() {
        return true;
    }

    /** SPEC SP-1: what this channel renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "The web chat renders Markdown, including code blocks and tables. "
                + dev.clawgate.core.prompt.ChannelGuidance.MEDIA_MARKERS;
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    public static boolean validClientId(String id) {
        return id != null && CLIENT_ID.matcher(id).matches();
    }

    /** Open pages, for tests and status. */
    public int openPages() {
        return pages.values().stream().mapToInt(Set::size).sum();
    }

    public void opened(Connection page) {
        pages.computeIfAbsent(page.clientId(), k -> ConcurrentHashMap.newKeySet())
                .add(page);
    }

    public void closed(Connection page) {
        pages.computeIfPresent(page.clientId(), (k, set) -> {
            set.remove(page);
            return set.isEmpty() ? null : set;
        });
    }

    /**
     * One frame from a page: a message is recorded in the inbox; anything else gets an error frame and records nothing.
     */
    public void received(Connection page, String frame) {
        switch (WebChatFrames.parse(frame)) {
            case WebChatFrames.Invalid bad -> page.send(WebChatFrames.error(bad.id(), bad.reason()));
            case WebChatFrames.Message m -> record(page, m.id() != null ? m.id() : "wc-" + UUID.randomUUID(), m.text());
        }
    }

    private void record(Connection page, String id, String text) {
        InboundMessage msg = message(page.clientId(), id, text);
        try {
            // SPEC IN-4: the sink returns once the message is committed
            InboundSink.Acceptance accepted = sink.accept(msg);
            if (accepted.duplicate())
                page.send(WebChatFrames.notice(id, "This message was already received; it is answered once."));
            // SPEC OP-10: no turn runs for a refused message; the page hears why at once
            if (accepted.refused())
                page.send(WebChatFrames.error(id, "I could not take that message: " + accepted.refusal() + "."));
        } catch (StoreException e) {
            log.error("web chat message not recorded: {}", e.getMessage());
            page.send(WebChatFrames.error(id, "The gateway could not record your message; send it again."));
        }
    }

    static InboundMessage message(String clientId, String id, String text) {
        return InboundMessage.builder()
                .id(id)
                .channel(NAME)
                .sender(clientId)
                .replyTarget(clientId)
                .text(text)
                .build();
    }

    /** The session's recent user and assistant messages as the page shows them: no tool summary prefix. */
    public List<HistoryItem> history(String clientId) {
        return transcript.apply(message(clientId, null, "")).stream()
                .filter(e -> e.role() == Role.USER || e.role() == Role.ASSISTANT)
                .map(e -> new HistoryItem(
                        e.role(),
                        e.role() == Role.ASSISTANT
                                ? USED_TOOLS.matcher(e.content()).replaceFirst("")
                                : e.content()))
                .toList();
    }

    /** Sends to every open page of the client; how many took it. */
    private int broadcast(String clientId, String frame) {
        Set<Connection> open = pages.get(clientId);
        if (open == null) return 0;
        int reached = 0;
        for (Connection c : open) {
            if (c.send(frame)) reached++;
            else closed(c);
        }
        return reached;
    }

    private final MessageAdapter adapter = new MessageAdapter() {
        @Override
        public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
            String id = message.target().inReplyToMessageId();
            // SPEC OUT-9: the reply's first part replaces the draft (finalEdit) and its receipt is the draft's
            // (previewReceipt)
            String draftId =
                    message.kind() == OutboundMessage.Kind.FINAL || message.kind() == OutboundMessage.Kind.ERROR
                            ? finishPreview(message.target())
                            : null;
            String frame = switch (message.kind()) {
                case FINAL ->
                    draftId != null
                            ? WebChatFrames.reply(id, message.text(), draftId)
                            : WebChatFrames.reply(id, message.text());
                case SEND, BLOCK -> WebChatFrames.reply(id, message.text());
                case NOTICE -> WebChatFrames.notice(id, message.text());
                case ERROR -> WebChatFrames.error(id, message.text());
            };
            if (broadcast(message.target().replyTarget(), frame) == 0) {
                throw new DeliveryException(
                        "no web chat page of this client is open; the reply stays in its session history", true, null);
            }
            return MessageReceipt.of(
                    draftId != null ? draftId : "webchat-" + message.turnId() + "-" + sent.incrementAndGet());
        }

        /** What the live preview really does (SPEC OUT-4, OUT-9); each has a proof in WebChatProofsTest. */
        @Override
        public Set<Capability> capabilities() {
            return CAPABILITIES;
        }

        /** SPEC OUT-6: connection-bound, durability disabled; the page reloads the reply from the history instead. */
        @Override
        public dev.clawgate.core.outbound.Durability durability() {
            return dev.clawgate.core.outbound.Durability.DISABLED;
        }

        /** SPEC OUT-1: {@code channels.webchat.text_limit}, 20000 by default. */
        @Override
        public int textLimit() {
            return currentTextLimit();
        }

        /**
         * The draft shows at once, before the model's first token (SPEC OUT-9); deltas arrive already sanitised (RP-2:
         * the turn's incremental sanitiser sits before this stream).
         */
        @Override
        public ReplyStream openStream(OutboundTarget target) {
            WebChatPreview preview = new WebChatPreview(
                    target.inReplyToMessageId(),
                    "webchat-draft-" + sent.incrementAndGet(),
                    currentPreviewInterval(),
                    previewTimer,
                    io,
                    frame -> broadcast(target.replyTarget(), frame));
            WebChatPreview old = previews.put(target, preview);
            if (old != null) old.finish();
            preview.start();
            return preview;
        }

        @Override
        public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
            finishPreview(target);
            broadcast(target.replyTarget(), WebChatFrames.done(target.inReplyToMessageId(), outcome.name()));
        }
    };
}

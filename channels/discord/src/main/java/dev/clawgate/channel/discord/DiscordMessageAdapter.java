package dev.clawgate.channel.discord;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.render.TextMeasure;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discord's outbound side (SPEC OUT-4, CH-5): one payload is one Create Message in the inbound message's channel (a
 * thread is a channel: its replies go in it), as a reply ({@code message_reference}) when the payload quotes the
 * inbound message; Markdown is Discord's own and sent as written, mentions of everyone or roles never ping
 * ({@code allowed_mentions}). Live preview by Edit Message, typing by Trigger Typing Indicator, ack reactions (RP-5).
 *
 * <p>SPEC OUT-7: every Create Message carries a {@code nonce} made from the payload's idempotency key with
 * {@code enforce_nonce}, so Discord answers a repeat within a few minutes with the message it already has. A send whose
 * answer is lost is ambiguous; reconcile sends it again with the same nonce only while its first attempt (kept in
 * {@link NonceLog}) is recent, which finds the message or makes the one, and says unknown past that. 429s wait for
 * their bucket (in {@link DiscordApi}); 4xx answers (Unknown Channel, Missing Access, Cannot send messages to this
 * user) fail at once.
 */
final class DiscordMessageAdapter implements MessageAdapter {
    static final Duration MAX_INLINE_RATE_WAIT = Duration.ofSeconds(10);
    static final String CREATE = "POST /channels/{channel.id}/messages";
    static final String EDIT = "PATCH /channels/{channel.id}/messages/{message.id}";
    static final String DELETE = "DELETE /channels/{channel.id}/messages/{message.id}";
    private static final Logger log = LoggerFactory.getLogger(DiscordMessageAdapter.class);

    private final Map<String, DiscordBot> bots;
    private final Executor io;
    private final Scheduler previewTimer;
    private final Duration previewInterval;
    private final Set<Capability> capabilities;
    private final ConcurrentHashMap<OutboundTarget, DiscordDraft> drafts = new ConcurrentHashMap<>();
    private final AckReactions reactions;
    private volatile NonceLog nonces = new NonceLog(null);

    DiscordMessageAdapter(Map<String, DiscordBot> bots, Executor io, Scheduler previewTimer, Duration previewInterval) {
        this.bots = Map.copyOf(bots);
        this.io = io;
        this.previewTimer = previewTimer;
        this.previewInterval = previewInterval;
        this.reactions = new AckReactions(io);
        // BATCH: a reply's text and media payloads go in order, each with its own receipt (SPEC OUT-5)
        Set<Capability> c = EnumSet.of(
                Capability.TEXT,
                Capability.MEDIA,
                Capability.BATCH,
                Capability.REPLY_TO,
                Capability.THREAD,
                Capability.MESSAGE_SENDING_HOOKS,
                Capability.RECONCILE_UNKNOWN_SEND);
        if (bots.values().stream().anyMatch(b -> b.account.preview())) {
            c.addAll(EnumSet.of(
                    Capability.DRAFT_PREVIEW,
                    Capability.PREVIEW_FINALIZATION,
                    Capability.FINAL_EDIT,
                    Capability.PREVIEW_RECEIPT,
                    Capability.NORMAL_FALLBACK,
                    Capability.DISCARD_PENDING,
                    Capability.RETAIN_ON_AMBIGUOUS_FAILURE));
        }
        this.capabilities = Set.copyOf(c);
    }

    /**
     * Keeps first attempts in {@code log} (a file under the data dir, so a reconcile after a restart can rely on it).
     */
    void nonceLog(NonceLog log) {
        this.nonces = log;
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public int textLimit() {
        return bots.values().stream().mapToInt(b -> b.account.textLimit()).min().orElse(DiscordAccount.MAX_TEXT);
    }

    /** SPEC OUT-1: Discord 2000 UTF-16 units (never fewer than Discord counts) and at most 17 lines. */
    @Override
    public ChunkLimits chunkLimits() {
        return new ChunkLimits(textLimit(), TextMeasure.utf16(), DiscordAccount.MAX_LINES);
    }

    @Override
    public boolean toolSummaryInTranscript() {
        return false;
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        OutboundTarget target = message.target();
        DiscordBot bot = bot(target);
        String channel = target.replyTarget();
        if (!MessageReader.snowflake(channel)) {
            throw new DeliveryException(
                    "discord: \"" + shown(channel) + "\" is not a channel id",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        if (message.text().length() > bot.account.textLimit()) {
            throw new DeliveryException(
                    "discord: a payload of " + message.text().length()
                            + " UTF-16 units is over account "
                            + bot.account.id() + "'s text_limit of " + bot.account.textLimit(),
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        DiscordDraft draft = endsTheTurn(message) ? drafts.remove(target) : null;
        String draftId = draft == null ? null : draft.finish();
        boolean media = !message.media().isEmpty();
        // a reply with files goes as a new message with them: the draft above it goes (normalFallback)
        if (draftId != null && (media || message.text().isBlank())) deleteMessage(bot, channel, draftId);
        if (message.text().isBlank() && !media) {
            return new MessageReceipt(
                    null, List.of(), List.of(), target.threadId(), null, null, null, Instant.now(), null);
        }
        if (draftId != null && !media && finalEdit(bot, channel, draftId, message.text(), cancel)) {
            return CreateMessage.receipt(draftId, target, null, null);
        }
        return post(bot, message, cancel);
    }

    private MessageReceipt post(DiscordBot bot, OutboundMessage message, CancelToken cancel) throws DeliveryException {
        return CreateMessage.post(bot, message, nonces, cancel);
    }

    /**
     * SPEC OUT-7: an ambiguous send is sent again with its nonce while its first attempt is within the part of
     * Discord's nonce window relied on: Discord returns the message it has, or makes the one that never arrived; either
     * way the platform now holds exactly one. Past the window, or with no record of an attempt in memory only, it is
     * unknown.
     */
    @Override
    public Reconciliation reconcileUnknownSend(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        String nonce = CreateMessage.nonce(message);
        var first = nonces.firstAttempt(nonce);
        if (first.isEmpty()) {
            return nonces.persistent()
                    ? new Reconciliation.NotSent()
                    : new Reconciliation.Unknown("no attempt of nonce " + nonce + " is known to this process");
        }
        Duration age = Duration.between(first.get(), Instant.now());
        if (age.compareTo(NonceLog.TRUSTED) > 0) {
            return new Reconciliation.Unknown(
                    "first sent " + age.toSeconds() + " s ago: past the minutes Discord checks a nonce");
        }
        return new Reconciliation.Found(post(bot(message.target()), message, cancel));
    }

    private static boolean endsTheTurn(OutboundMessage message) {
        return message.kind() != OutboundMessage.Kind.NOTICE && message.kind() != OutboundMessage.Kind.BLOCK;
    }

    /**
     * Edits the draft into the reply (finalEdit). True when the draft now stands for the reply: edited, or the edit's
     * outcome is unknown (retainOnAmbiguousFailure). False when Discord refused it: the draft is deleted and the reply
     * posted normally (normalFallback). An abort before the edit deletes the draft (SPEC OUT-11).
     */
    private boolean finalEdit(DiscordBot bot, String channel, String draftId, String text, CancelToken cancel)
            throws DeliveryException {
        try {
            bot.api.call(
                    "PATCH",
                    EDIT,
                    channel,
                    "/channels/" + channel + "/messages/" + draftId,
                    DiscordApi.JSON.createObjectNode().put("content", text),
                    cancel);
            return true;
        } catch (CancelledException e) {
            deleteMessage(bot, channel, draftId);
            throw e;
        } catch (DiscordApiException e) {
            if (e.reach() == DiscordApiException.Reach.UNKNOWN && cancel.isCancelled())
                throw e.toDelivery("final edit of the draft");
            if (e.reach() == DiscordApiException.Reach.UNKNOWN) {
                log.warn(
                        "discord [{}]: final edit of draft {} got no answer; keeping the draft rather than risking "
                                + "a duplicate: {}",
                        bot.account.id(),
                        draftId,
                        e.getMessage());
                return true;
            }
            log.info(
                    "discord [{}]: final edit of draft {} failed ({}); posting the reply as a new message",
                    bot.account.id(),
                    draftId,
                    e.getMessage());
            deleteMessage(bot, channel, draftId);
            return false;
        }
    }

    static void deleteMessage(DiscordBot bot, String channel, String id) {
        try {
            bot.api.call(
                    "DELETE", DELETE, channel, "/channels/" + channel + "/messages/" + id, null, CancelToken.none());
        } catch (DiscordApiException e) {
            log.info("discord [{}]: draft {} not deleted: {}", bot.account.id(), id, e.getMessage());
        }
    }

    /**
     * SPEC OUT-9: with {@code stream_mode = "preview"}, a {@code ...} draft at once in the reply's channel, then edits.
     */
    @Override
    public ReplyStream openStream(OutboundTarget target) {
        DiscordBot bot = bots.get(target.account());
        String channel = target.replyTarget();
        if (bot == null || !bot.account.preview() || !MessageReader.snowflake(channel)) return ReplyStream.NONE;
        DiscordDraft draft = new DiscordDraft(bot, channel, previewInterval, previewTimer, io);
        DiscordDraft old = drafts.put(target, draft);
        if (old != null) discard(bot, old);
        draft.start();
        return new ReplyStream() {
            @Override
            public void delta(String text) {
                draft.delta(text);
            }

            @Override
            public void reasoning(String text) {
                draft.reasoning(text);
            }

            @Override
            public void discard() {
                if (drafts.remove(target, draft)) DiscordMessageAdapter.discard(bot, draft);
            }
        };
    }

    /** The turn ended; a draft no final reply took (cancelled, suppressed) is deleted (SPEC DI-5, RP-1). */
    @Override
    public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
        DiscordBot bot = bots.get(target.account());
        DiscordDraft draft = drafts.remove(target);
        if (draft != null && bot != null) discard(bot, draft);
    }

    private static void discard(DiscordBot bot, DiscordDraft draft) {
        String id = draft.finish();
        if (id != null) deleteMessage(bot, draft.channel(), id);
    }

    /**
     * SPEC RP-5: Trigger Typing Indicator (it shows for about 10 s; core calls again every 4 s), off the caller's
     * thread.
     */
    @Override
    public void typing(OutboundTarget target) {
        DiscordBot bot = bots.get(target.account());
        String channel = target.replyTarget();
        if (bot == null || !MessageReader.snowflake(channel)) return;
        io.execute(() -> {
            try {
                bot.api.call(
                        "POST",
                        "POST /channels/{channel.id}/typing",
                        channel,
                        "/channels/" + channel + "/typing",
                        null,
                        CancelToken.none());
            } catch (DiscordApiException e) {
                log.debug("discord [{}]: typing not shown: {}", bot.account.id(), e.getMessage());
            }
        });
    }

    @Override
    public void received(OutboundTarget target) {
        DiscordBot bot = bots.get(target.account());
        if (bot != null
                && bot.account.ackReactions()
                && MessageReader.snowflake(target.inReplyToMessageId())
                && MessageReader.snowflake(target.replyTarget())) {
            reactions.received(bot, target.replyTarget(), target.inReplyToMessageId());
        }
    }

    @Override
    public void settled(OutboundTarget target, InboxState state) {
        DiscordBot bot = bots.get(target.account());
        if (bot != null
                && bot.account.ackReactions()
                && MessageReader.snowflake(target.inReplyToMessageId())
                && MessageReader.snowflake(target.replyTarget())) {
            reactions.settled(bot, target.replyTarget(), target.inReplyToMessageId(), state);
        }
    }

    private DiscordBot bot(OutboundTarget target) throws DeliveryException {
        DiscordBot bot = bots.get(target.account());
        if (bot == null)
            throw new DeliveryException(
                    "discord has no account '" + target.account() + "'", DeliveryException.Kind.PERMANENT, null, null);
        return bot;
    }

    private static String shown(String s) {
        if (s == null) return "null";
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}

package dev.clawgate.core.channel;

import java.util.List;

/**
 * One chat platform (ARCHITECTURE: SPIs): its receive side and its {@link MessageAdapter}. {@link #start} returns once
 * the listener runs (on its own threads); it throws when the channel cannot start, with a message that says why.
 */
public interface Channel {
    String name();

    void start(InboundSink sink) throws Exception;

    /** HTTP routes the server mounts for this channel (webhooks); none by default. */
    default List<WebhookRoute> webhookRoutes() {
        return List.of();
    }

    void stop();

    default ChannelHealth health() {
        return ChannelHealth.UP;
    }

    /**
     * The accounts whose listeners this channel can start and stop one by one (one bot, app or connection each), so a
     * cluster runs each on its own elected node (SPEC OP-2, CH-0). Empty, the default: the channel is one listener,
     * started and stopped whole. A channel that names accounts is either started whole ({@link #start}: every account)
     * or account by account ({@link #startAccount}), never both at once; {@link #stop} stops whatever runs.
     */
    default List<String> accounts() {
        return List.of();
    }

    /**
     * Whether {@code account}'s listener pulls (polls or holds a socket), so it must run on one node at a time; false
     * for an account that receives by webhook, which runs on every node behind the load balancer.
     */
    default boolean pulls(String account) {
        return true;
    }

    /**
     * Starts the listener of {@code account}, one of {@link #accounts()}, and what the channel shares (its timers) when
     * no account runs yet; the other accounts are left as they are. Returns once it runs; throws, saying why, when it
     * cannot start, with nothing of that account left running.
     */
    default void startAccount(String account, InboundSink sink) throws Exception {
        throw new UnsupportedOperationException(name() + " has no account listeners");
    }

    /** Stops {@code account}'s listener and returns once it stopped taking input; the other accounts keep running. */
    default void stopAccount(String account) {
        throw new UnsupportedOperationException(name() + " has no account listeners");
    }

    /** The health of {@code account}'s listener while it runs; the channel's health by default. */
    default ChannelHealth health(String account) {
        return health();
    }

    MessageAdapter messageAdapter();

    /**
     * The receive ack policies this channel can really defer to (SPEC IN-3); {@link AckPolicy#MANUAL} alone when it
     * declares none. Webhook channels may declare only after_receive_record.
     */
    default java.util.Set<AckPolicy> ackPolicies() {
        return java.util.Set.of(AckPolicy.MANUAL);
    }

    /**
     * Webhook requests this channel refused (missing or wrong secret or signature) since it was made (SPEC IN-5:
     * counted, not stored); the server shows it on {@code /metrics}. 0 for a channel without webhooks.
     */
    default long rejectedRequests() {
        return 0;
    }

    /** Owner channels (terminal, web chat, API) skip access control (SPEC IN-5). */
    default boolean ownerChannel() {
        return false;
    }

    /** Request/response channels always queue as followup (SPEC DI-2). */
    default boolean requestResponse() {
        return false;
    }

    /**
     * How replies should be formatted here, for the prompt's Channel Capabilities section (SPEC SP-1): what the
     * platform renders (Markdown flavour, tables, media markers, see
     * {@link dev.clawgate.core.prompt.ChannelGuidance#MEDIA_MARKERS}). Empty: the generic guidance.
     */
    default String formatGuidance() {
        return "";
    }
}

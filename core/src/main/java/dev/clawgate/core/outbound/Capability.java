package dev.clawgate.core.outbound;

import java.util.Locale;

/**
 * What a message adapter really preserves (SPEC OUT-4). An adapter declares only what its contract test proves against
 * the platform's server; the core never assumes one it lacks.
 */
public enum Capability {
    TEXT(Group.DELIVERY),
    MEDIA(Group.DELIVERY),
    PAYLOAD(Group.DELIVERY),
    REPLY_TO(Group.DELIVERY),
    THREAD(Group.DELIVERY),
    SILENT(Group.DELIVERY),
    NATIVE_QUOTE(Group.DELIVERY),
    MESSAGE_SENDING_HOOKS(Group.DELIVERY),
    BATCH(Group.DELIVERY),
    RECONCILE_UNKNOWN_SEND(Group.DELIVERY),
    AFTER_SEND_SUCCESS(Group.DELIVERY),
    AFTER_COMMIT(Group.DELIVERY),
    /**
     * The adapter may send one payload as several platform messages (a platform that must cut a text the planner
     * already cut to {@code chunkLimits()} further). Without it, one payload is exactly one platform message, so a
     * receipt names one message per payload (SPEC OUT-1, OUT-8).
     */
    SPLITS_PAYLOADS(Group.DELIVERY),

    DRAFT_PREVIEW(Group.LIVE),
    PREVIEW_FINALIZATION(Group.LIVE),
    PROGRESS_UPDATES(Group.LIVE),
    QUIET_FINALIZATION(Group.LIVE),

    FINAL_EDIT(Group.FINALIZER),
    NORMAL_FALLBACK(Group.FINALIZER),
    DISCARD_PENDING(Group.FINALIZER),
    PREVIEW_RECEIPT(Group.FINALIZER),
    RETAIN_ON_AMBIGUOUS_FAILURE(Group.FINALIZER);

    /**
     * Delivery capabilities shape one send; live ones a reply while it is generated; finalizer ones how a preview ends.
     */
    public enum Group {
        DELIVERY,
        LIVE,
        FINALIZER
    }

    private final Group group;

    Capability(Group group) {
        this.group = group;
    }

    public Group group() {
        return group;
    }

    /**
     * A payload may ask for these; an adapter without them gets the payload without them, and the drop is recorded. A
     * quote of the inbound message is cosmetic; a thread is not (a reply outside its thread reaches the wrong
     * conversation), so THREAD is never dropped.
     */
    public boolean optional() {
        return this == SILENT || this == NATIVE_QUOTE || this == REPLY_TO;
    }

    /** The SPEC's spelling: {@code replyTo}, {@code reconcileUnknownSend}. */
    public String specName() {
        String[] words = name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder b = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++)
            b.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        return b.toString();
    }
}

package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.SendOptions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The one place that says which capabilities a delivery needs (SPEC OUT-4): derived from the payloads and their
 * options, never written by hand at a call site.
 */
public final class Capabilities {
    private Capabilities() {}

    /** What sending {@code payloads} as one delivery at {@code durability} asks of an adapter. */
    public static Set<Capability> required(List<OutboundMessage> payloads, Durability durability) {
        Set<Capability> needs = EnumSet.noneOf(Capability.class);
        boolean text = false, media = false;
        for (OutboundMessage m : payloads) {
            needs.addAll(required(m));
            text |= !m.text().isBlank();
            media |= !m.media().isEmpty();
        }
        // a mixed batch (text and media as one delivery) needs per-payload outcomes from the adapter
        if (text && media && payloads.size() > 1) needs.add(Capability.BATCH);
        if (durability == Durability.REQUIRED) needs.add(Capability.RECONCILE_UNKNOWN_SEND);
        return needs;
    }

    /** What one payload asks of an adapter. */
    public static Set<Capability> required(OutboundMessage m) {
        Set<Capability> needs = EnumSet.noneOf(Capability.class);
        if (!m.text().isBlank()) needs.add(Capability.TEXT);
        if (!m.media().isEmpty()) needs.add(Capability.MEDIA);
        // a platform-native payload is content: never dropped, so a channel that cannot carry it is unsupported
        if (m.payload() != null) needs.add(Capability.PAYLOAD);
        if (m.options().replyTo() && m.target().inReplyToMessageId() != null) needs.add(Capability.REPLY_TO);
        if (m.target().threadId() != null && !m.target().threadId().isEmpty()) needs.add(Capability.THREAD);
        if (m.options().silent()) needs.add(Capability.SILENT);
        if (m.options().nativeQuote()) needs.add(Capability.NATIVE_QUOTE);
        if (!m.options().skipSendingHooks()) needs.add(Capability.MESSAGE_SENDING_HOOKS);
        return needs;
    }

    /**
     * The payloads as {@code declared} can carry them: optional asks the adapter lacks are dropped (and listed);
     * whatever is still missing makes the delivery {@code unsupported}.
     */
    public static Fit fit(List<OutboundMessage> payloads, Set<Capability> declared, Durability durability) {
        Set<Capability> dropped = EnumSet.noneOf(Capability.class);
        List<OutboundMessage> adjusted = new ArrayList<>(payloads.size());
        for (OutboundMessage m : payloads) {
            SendOptions o = m.options();
            if (o.silent() && !declared.contains(Capability.SILENT)) {
                o = o.withoutSilent();
                dropped.add(Capability.SILENT);
            }
            if (o.replyTo() && m.target().inReplyToMessageId() != null && !declared.contains(Capability.REPLY_TO)) {
                o = o.withoutReplyTo();
                dropped.add(Capability.REPLY_TO);
            }
            if (o.nativeQuote() && !declared.contains(Capability.NATIVE_QUOTE)) {
                o = o.withoutNativeQuote();
                dropped.add(Capability.NATIVE_QUOTE);
            }
            adjusted.add(o == m.options() ? m : m.withOptions(o));
        }
        Set<Capability> missing = EnumSet.noneOf(Capability.class);
        for (Capability c : required(adjusted, durability)) if (!declared.contains(c)) missing.add(c);
        return new Fit(List.copyOf(adjusted), Set.copyOf(dropped), Set.copyOf(missing));
    }

    /**
     * @param payloads what to send, optional asks the adapter lacks removed
     * @param dropped the optional asks removed (recorded with the delivery)
     * @param missing what the adapter lacks that the payloads cannot do without; empty when it fits
     */
    public record Fit(List<OutboundMessage> payloads, Set<Capability> dropped, Set<Capability> missing) {
        public boolean fits() {
            return missing.isEmpty();
        }
    }
}

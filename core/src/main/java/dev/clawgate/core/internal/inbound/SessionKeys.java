package dev.clawgate.core.internal.inbound;

import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.SessionSettings;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.util.Objects;

/**
 * The session a message belongs to under {@code session.dm_scope} and {@code session.group_scope} (SPEC HI-1). The
 * tuple is the identity; the wildcard {@code *} fills the columns a scope spans.
 */
public final class SessionKeys {
    /** Fills the channel, account or target of a session that spans them. */
    public static final String ANY = "*";
    /** The target and sender of the owner's one shared session under {@code dm_scope = main}. */
    public static final String MAIN_TARGET = "main";

    public static final String OWNER = "owner";

    private SessionKeys() {}

    public static SessionKey of(InboundMessage m, SessionSettings session, GatewaySettings gateway) {
        Objects.requireNonNull(m, "message");
        Objects.requireNonNull(session, "session settings");
        Objects.requireNonNull(gateway, "gateway settings");
        if (m.chatType() == ChatType.GROUP) {
            String sender = switch (session.groupScope()) {
                case SHARED -> null;
                case PER_SENDER -> m.sender();
            };
            return new SessionKey(m.channel(), m.account(), ChatType.GROUP, m.replyTarget(), m.threadId(), sender);
        }
        return switch (session.dmScope()) {
            case PER_CHANNEL_PEER -> perChannelPeer(m);
            case PER_PEER -> new SessionKey(ANY, ANY, ChatType.DIRECT, ANY, null, m.sender());
            case MAIN ->
                gateway.isOwner(m.channel(), m.sender())
                        ? new SessionKey(ANY, ANY, ChatType.DIRECT, MAIN_TARGET, null, OWNER)
                        : perChannelPeer(m);
        };
    }

    private static SessionKey perChannelPeer(InboundMessage m) {
        return new SessionKey(m.channel(), m.account(), ChatType.DIRECT, m.replyTarget(), m.threadId(), m.sender());
    }
}

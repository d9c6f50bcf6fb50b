package dev.clawgate.channel.xmpp;

import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.ConnectionListener;
import org.jivesoftware.smack.ReconnectionManager;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.MessageWithBodiesFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.delay.packet.DelayInformation;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.Jid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The XMPP client connection (SPEC CH-8, RFC 6120/6121) on Smack: SASL login, resource binding, stream management
 * (XEP-0198) with resumption where the server offers it, the configured MUC rooms (XEP-0045) joined with the nick and
 * joined again after every reconnect that could not resume. One-to-one {@code chat} messages become direct messages; a
 * room message starts a turn only when it is addressed ({@code nick: ...} or {@code nick, ...}) and is context
 * otherwise. A lost connection is made again with backoff (1 s doubling to 60 s) on the channel's own virtual thread
 * (SPEC CH-0); one {@link XMPPTCPConnection} lives as long as the client, so Smack's stream-management state (what the
 * server has not acknowledged yet, the resumption id) survives the reconnect.
 */
final class XmppClient {
    private static final Logger log = LoggerFactory.getLogger(XmppClient.class);
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    private final XmppSettings settings;
    private final String channelName;
    private final XMPPTCPConnection connection;
    private final MultiUserChatManager mucs;
    private final Set<String> joinedRooms = ConcurrentHashMap.newKeySet();
    private final Semaphore lost = new Semaphore(0);
    private volatile InboundSink sink;
    private volatile Thread loop;
    private volatile ChannelHealth health = ChannelHealth.down("not started");
    private volatile int logins;
    private volatile int resumptions;

    XmppClient(XmppSettings settings, String channelName) {
        this.settings = settings;
        this.channelName = channelName;
        this.connection = new XMPPTCPConnection(configuration(settings));
        connection.setUseStreamManagement(true);
        connection.setUseStreamManagementResumption(true);
        connection.setReplyTimeout(Duration.ofSeconds(10).toMillis());
        // the channel's own loop reconnects, with its backoff and its health; Smack's must not race it
        ReconnectionManager.getInstanceFor(connection).disableAutomaticReconnection();
        this.mucs = MultiUserChatManager.getInstanceFor(connection);
        mucs.setAutoJoinOnReconnect(false);
        connection.addConnectionListener(new ConnectionListener() {
            @Override
            public void connectionClosedOnError(Exception e) {
                health = ChannelHealth.down("disconnected: " + e.getMessage());
                lost.release();
            }
        });
        connection.addSyncStanzaListener(
                this::onMessage, new AndFilter(StanzaTypeFilter.MESSAGE, MessageWithBodiesFilter.INSTANCE));
    }

    private static XMPPTCPConnectionConfiguration configuration(XmppSettings s) {
        try {
            XMPPTCPConnectionConfiguration.Builder b = XMPPTCPConnectionConfiguration.builder()
                    .setUsernameAndPassword(s.local(), s.password())
                    .setXmppDomain(s.domain())
                    .setHost(s.connectHost())
                    .setPort(s.port())
                    .setResource("clawgate")
                    .setSendPresence(true)
                    .setConnectTimeout((int) Duration.ofSeconds(15).toMillis());
            switch (s.tls()) {
                case STARTTLS -> b.setSecurityMode(SecurityMode.required);
                case NONE -> b.setSecurityMode(SecurityMode.disabled);
                case DIRECT ->
                    b.setSecurityMode(SecurityMode.disabled).setSocketFactory(new DirectTlsSocketFactory(s.domain()));
            }
            return b.build();
        } catch (org.jxmpp.stringprep.XmppStringprepException e) {
            throw new IllegalArgumentException("channels.xmpp.jid is not a valid JID: " + e.getMessage(), e);
        }
    }

    void start(InboundSink inboundSink) {
        if (loop != null) throw new IllegalStateException("xmpp channel already started");
        this.sink = inboundSink;
        health = ChannelHealth.down("connecting to " + settings.connectHost() + ":" + settings.port());
        Thread t = Thread.ofVirtual().name("xmpp-" + settings.jid()).unstarted(this::run);
        loop = t;
        t.start();
    }

    void stop() {
        Thread t = loop;
        loop = null;
        sink = null;
        if (t != null) t.interrupt();
        connection.disconnect();
        if (t != null) {
            try {
                t.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        joinedRooms.clear();
        health = ChannelHealth.down("stopped");
    }

    ChannelHealth health() {
        return health;
    }

    XMPPTCPConnection connection() {
        return connection;
    }

    boolean online() {
        return connection.isAuthenticated();
    }

    /** Logins so far (the first and every reconnect that was not a resumption), and resumed streams. */
    int logins() {
        return logins;
    }

    int resumptions() {
        return resumptions;
    }

    /** Whether {@code bareJid} is one of the rooms this client is in (its messages are {@code groupchat}). */
    boolean isRoom(String bareJid) {
        return settings.rooms().contains(bareJid.toLowerCase(Locale.ROOT));
    }

    private void run() {
        Duration backoff = FIRST_BACKOFF;
        while (loop == Thread.currentThread()) {
            try {
                session();
                backoff = FIRST_BACKOFF;
                lost.acquire();
                lost.drainPermits();
                log.warn("xmpp {}: connection lost; reconnecting", settings.jid());
                continue;
            } catch (InterruptedException stopped) {
                return;
            } catch (XMPPException | SmackException | java.io.IOException e) {
                health = ChannelHealth.down("cannot connect: " + e.getMessage());
                log.warn(
                        "xmpp {} via {}:{}: {}; retrying in {} ms",
                        settings.jid(),
                        settings.connectHost(),
                        settings.port(),
                        e.getMessage(),
                        backoff.toMillis());
                if (connection.isConnected() && !connection.isAuthenticated()) connection.instantShutdown();
            }
            if (loop != Thread.currentThread()) return;
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException stopped) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /**
     * Connects and logs in (resuming the stream when it can), then joins the rooms it is not in: all of them on a new
     * stream, those a failed attempt left out when it runs again on the same stream.
     */
    private void session() throws SmackException, XMPPException, java.io.IOException, InterruptedException {
        lost.drainPermits();
        if (!connection.isConnected()) connection.connect();
        if (!connection.isAuthenticated()) {
            connection.login();
            if (connection.streamWasResumed()) {
                resumptions++;
                log.info("xmpp {}: stream resumed (XEP-0198), nothing to rejoin", settings.jid());
            } else {
                logins++;
                joinedRooms.clear();
            }
        }
        for (String room : settings.rooms()) {
            if (!joinedRooms.contains(room)) join(room);
        }
        health = ChannelHealth.UP;
    }

    private void join(String room) throws SmackException, XMPPException, InterruptedException {
        EntityBareJid jid = JidCreate.entityBareFromOrThrowUnchecked(room);
        MultiUserChat muc = mucs.getMultiUserChat(jid);
        var enter = muc.getEnterConfigurationBuilder(Resourcepart.fromOrThrowUnchecked(settings.nick()))
                .requestNoHistory()
                .build();
        // a stream that was not resumed has left every room: Smack's record of having joined is stale
        if (muc.isJoined()) {
            try {
                muc.leave();
            } catch (SmackException.NoResponseException
                    | XMPPException.XMPPErrorException
                    | org.jivesoftware.smackx.muc.MultiUserChatException.MucNotJoinedException stale) {
                log.debug("xmpp {}: leaving the stale join of {}: {}", settings.jid(), room, stale.getMessage());
            }
        }
        // a room that is gone (a server restart) is made again, unlocked as an instant room (XEP-0045 10.1.2)
        MultiUserChat.MucCreateConfigFormHandle created = muc.createOrJoin(enter);
        if (created != null) created.makeInstant();
        joinedRooms.add(room);
        log.info("xmpp {}: joined {} as {}", settings.jid(), room, settings.nick());
    }

    Set<String> joinedRooms() {
        return Set.copyOf(joinedRooms);
    }

    private void onMessage(Stanza stanza) {
        InboundSink s = sink;
        if (s == null || !(stanza instanceof Message m)) return;
        InboundMessage in = toInbound(m);
        if (in == null) return;
        InboundSink.Acceptance a = s.accept(in);
        if (a.refused()) log.info("xmpp {}: message from {} refused: {}", settings.jid(), in.sender(), a.refusal());
    }

    /**
     * The inbound message for {@code m}, or null when it is not one the gateway takes (our own echo, an error, a
     * headline).
     */
    InboundMessage toInbound(Message m) {
        Jid from = m.getFrom();
        if (from == null || m.getBody() == null) return null;
        String bare = from.asBareJid().toString().toLowerCase(Locale.ROOT);
        DelayInformation delay = DelayInformation.from(m);
        Instant at = delay == null ? Instant.now() : delay.getStamp().toInstant();
        String id = m.getStanzaId() == null ? null : "xmpp:" + bare + ":" + m.getStanzaId();
        String text = XmppText.inbound(m.getBody());
        return switch (m.getType()) {
            case chat, normal ->
                new InboundMessage(
                        id,
                        channelName,
                        InboundMessage.DEFAULT_ACCOUNT,
                        bare,
                        null,
                        bare,
                        null,
                        null,
                        ChatType.DIRECT,
                        true,
                        at,
                        text,
                        List.of(),
                        null);
            case groupchat -> {
                String nick = from.getResourceOrEmpty().toString();
                // our own echo, the room's own messages (no nick), and history replayed on join are not turns
                if (nick.isEmpty() || nick.equals(settings.nick()) || !isRoom(bare) || delay != null) yield null;
                String addressed = XmppText.addressedTo(settings.nick(), text);
                yield new InboundMessage(
                        id,
                        channelName,
                        InboundMessage.DEFAULT_ACCOUNT,
                        bare + "/" + nick,
                        nick,
                        bare,
                        null,
                        null,
                        ChatType.GROUP,
                        addressed != null,
                        at,
                        addressed != null ? addressed : text,
                        List.of(),
                        null);
            }
            default -> null;
        };
    }

    /** Direct TLS (XEP-0368): the socket speaks TLS from the first byte, its certificate checked against the domain. */
    private static final class DirectTlsSocketFactory extends javax.net.SocketFactory {
        private final String domain;

        DirectTlsSocketFactory(String domain) {
            this.domain = domain;
        }

        private SSLSocket checked(java.net.Socket socket) {
            SSLSocket tls = (SSLSocket) socket;
            SSLParameters p = tls.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            p.setServerNames(List.of(new javax.net.ssl.SNIHostName(domain)));
            tls.setSSLParameters(p);
            return tls;
        }

        private static SSLSocketFactory tls() {
            return (SSLSocketFactory) SSLSocketFactory.getDefault();
        }

        @Override
        public java.net.Socket createSocket() throws java.io.IOException {
            return checked(tls().createSocket());
        }

        @Override
        public java.net.Socket createSocket(String host, int port) throws java.io.IOException {
            return checked(tls().createSocket(host, port));
        }

        @Override
        public java.net.Socket createSocket(String host, int port, java.net.InetAddress local, int localPort)
                throws java.io.IOException {
            return checked(tls().createSocket(host, port, local, localPort));
        }

        @Override
        public java.net.Socket createSocket(java.net.InetAddress host, int port) throws java.io.IOException {
            return checked(tls().createSocket(host, port));
        }

        @Override
        public java.net.Socket createSocket(java.net.InetAddress a, int port, java.net.InetAddress local, int localPort)
                throws java.io.IOException {
            return checked(tls().createSocket(a, port, local, localPort));
        }
    }
}

package dev.clawgate.testkit.xmpp;

import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.ReconnectionManager;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.chatstates.packet.ChatStateExtension;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;

/**
 * A person on XMPP, as a test drives one: a second Smack client logged in to the test's prosody. It sends chat and room
 * messages and records every message stanza it receives; its {@link #calls()} are the messages with a body
 * ({@code method} is the type, {@code body} the text, headers {@code id} and {@code from}), so the capability harness
 * checks what reached a user through the server.
 */
public final class XmppUser implements PlatformCallLog, AutoCloseable {
    private final Prosody server;
    private final String user;
    private final String password;
    private XMPPTCPConnection connection;
    private final List<Message> received = new CopyOnWriteArrayList<>();

    private XmppUser(Prosody server, String user, String password) {
        this.server = server;
        this.user = user;
        this.password = password;
    }

    /** Logs {@code user} in to {@code server} (plain stream: the test server has no certificate). */
    public static XmppUser connect(Prosody server, String user, String password) {
        XmppUser u = new XmppUser(server, user, password);
        u.login();
        return u;
    }

    /** Logs in again after the server was restarted (a fresh stream). */
    public void login() {
        try {
            if (connection != null) connection.instantShutdown();
            XMPPTCPConnection c = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                    .setUsernameAndPassword(user, password)
                    .setXmppDomain(Prosody.DOMAIN)
                    .setHost(server.host())
                    .setPort(server.port())
                    .setSecurityMode(SecurityMode.disabled)
                    .setResource("test")
                    .build());
            ReconnectionManager.getInstanceFor(c).disableAutomaticReconnection();
            c.addSyncStanzaListener(s -> received.add((Message) s), StanzaTypeFilter.MESSAGE);
            c.connect().login();
            connection = c;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "user " + user + " cannot log in to prosody: " + e + "\n" + server.log(), e);
        }
    }

    public String jid() {
        return server.jid(user);
    }

    /** Sends a one-to-one chat message; returns its stanza id. */
    public String say(String toBareJid, String text) {
        return sayWithId(toBareJid, text, null);
    }

    /** Sends a one-to-one chat message with the given stanza id (null: a fresh one), as a client resending it would. */
    public String sayWithId(String toBareJid, String text, String id) {
        try {
            var factory = id == null
                    ? connection.getStanzaFactory()
                    : new org.jivesoftware.smack.packet.StanzaFactory(() -> id);
            Message m = factory.buildMessageStanza()
                    .to(JidCreate.entityBareFrom(toBareJid))
                    .ofType(Message.Type.chat)
                    .setBody(text)
                    .build();
            connection.sendStanza(m);
            return m.getStanzaId();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + toBareJid + ": " + e, e);
        }
    }

    /** Joins (creating when needed) a room as {@code nick}. */
    public MultiUserChat join(String roomJid, String nick) {
        try {
            MultiUserChat muc =
                    MultiUserChatManager.getInstanceFor(connection).getMultiUserChat(JidCreate.entityBareFrom(roomJid));
            MultiUserChat.MucCreateConfigFormHandle h =
                    muc.createOrJoin(muc.getEnterConfigurationBuilder(Resourcepart.from(nick))
                            .requestNoHistory()
                            .build());
            if (h != null) h.makeInstant();
            return muc;
        } catch (Exception e) {
            throw new IllegalStateException("cannot join " + roomJid + ": " + e, e);
        }
    }

    /** Says {@code text} in a room this user joined. */
    public void sayInRoom(MultiUserChat muc, String text) {
        try {
            muc.sendMessage(text);
        } catch (Exception e) {
            throw new IllegalStateException("cannot say in " + muc.getRoom() + ": " + e, e);
        }
    }

    /** Every message stanza received, with or without a body. */
    public List<Message> stanzas() {
        return List.copyOf(received);
    }

    /** The chat states (XEP-0085) received, in order, e.g. {@code composing}. */
    public List<String> chatStates() {
        List<String> states = new ArrayList<>();
        for (Message m : received) {
            for (var e : m.getExtensions()) {
                if (e instanceof ChatStateExtension state)
                    states.add(state.getChatState().name());
            }
        }
        return states;
    }

    /** The messages with a body received from {@code fromBareJid} (a room: from its occupants). */
    public List<String> textsFrom(String fromBareJid) {
        List<String> texts = new ArrayList<>();
        for (Message m : received) {
            if (m.getBody() != null
                    && m.getFrom() != null
                    && m.getFrom().asBareJid().toString().equals(fromBareJid)) texts.add(m.getBody());
        }
        return texts;
    }

    @Override
    public List<PlatformCall> calls() {
        List<PlatformCall> calls = new ArrayList<>();
        for (Message m : received) {
            if (m.getBody() == null) continue;
            calls.add(new PlatformCall(
                    m.getType().name(),
                    m.getBody(),
                    Map.of("id", String.valueOf(m.getStanzaId()), "from", String.valueOf(m.getFrom()))));
        }
        return calls;
    }

    /** Waits until the stream is gone (the server was killed): the client noticed. */
    public boolean connected() {
        return connection != null && connection.isConnected();
    }

    public static Duration patience() {
        return Duration.ofSeconds(30);
    }

    @Override
    public void close() {
        if (connection != null) connection.disconnect();
    }
}

package dev.clawgate.channel.xmpp;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code [channels.xmpp]} (SPEC CH-8): the account, where its server is, how the stream is secured, and which MUC rooms
 * to join. The access keys ({@code dm_policy}, {@code group_policy}, {@code allowed_users}) are the ones every channel
 * has, read by the server's loader.
 *
 * @param jid the bot's bare JID, {@code local@domain}
 * @param host the server to connect to; null to use the JID's domain
 * @param rooms the bare JIDs of the MUC rooms to join
 * @param nick the nick in every room
 * @param textLimit the most characters of one message
 */
record XmppSettings(
        String jid, String password, String host, int port, Tls tls, List<String> rooms, String nick, int textLimit) {

    /**
     * How the stream is secured: STARTTLS on 5222 (RFC 6120 5), TLS from the first byte (XEP-0368), or none (a local
     * test server).
     */
    enum Tls {
        STARTTLS,
        DIRECT,
        NONE
    }

    static final int DEFAULT_PORT = 5222;
    static final int DEFAULT_DIRECT_PORT = 5223;
    static final int DEFAULT_TEXT_LIMIT = 4000;
    static final int MAX_TEXT_LIMIT = 60_000;
    private static final Pattern BARE_JID = Pattern.compile("[^@/\\s\"&'<>:]+@[^@/\\s]+");

    @Override
    public String toString() {
        return "XmppSettings[jid=" + jid + ", host=" + host + ", port=" + port + ", tls=" + tls + ", rooms=" + rooms
                + ", nick=" + nick + "]";
    }

    String local() {
        return jid.substring(0, jid.indexOf('@'));
    }

    String domain() {
        return jid.substring(jid.indexOf('@') + 1);
    }

    /** Where to connect: the configured host, else the JID's domain. */
    String connectHost() {
        return host == null ? domain() : host;
    }

    static List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("jid", "The bot's bare JID, e.g. clawgate@example.org."),
                ChannelOption.string("password", "The account's password (SASL).")
                        .asSecret(),
                ChannelOption.string("host", "The server to connect to; the JID's domain when unset."),
                ChannelOption.integer("port", "The server's port: 5222 by default, 5223 with tls = \"direct\".")
                        .withDefault(DEFAULT_PORT),
                ChannelOption.string("tls", "starttls (required), direct (XEP-0368 TLS from the first byte) or none.")
                        .withDefault("starttls"),
                ChannelOption.list("rooms", "MUC rooms to join, e.g. [\"team@conference.example.org\"]."),
                ChannelOption.string("nick", "The bot's nick in the rooms.").withDefault("clawgate"),
                ChannelOption.integer("text_limit", "The most characters of one message; longer replies are split.")
                        .withDefault(DEFAULT_TEXT_LIMIT));
    }

    /** @throws IllegalArgumentException starting with the key's full path */
    static void check(ChannelSettings settings) {
        read(settings.options(), false);
    }

    /** The settings to connect with: {@code jid} and {@code password} are required here. */
    static XmppSettings of(ChannelSettings settings) {
        return read(settings.options(), true);
    }

    private static XmppSettings read(Map<String, String> o, boolean complete) {
        String jid = blankToNull(o.get("jid"));
        if (complete && jid == null)
            throw error("jid", "is required: the bot's bare JID, e.g. jid = \"clawgate@example.org\"");
        if (jid != null && !BARE_JID.matcher(jid).matches())
            throw error("jid", "must be a bare JID (local@domain), got '" + jid + "'");
        String password = blankToNull(o.get("password"));
        if (complete && password == null) throw error("password", "is required (the XMPP account's password)");
        String host = blankToNull(o.get("host"));
        if (host != null && (host.contains(" ") || host.contains("/")))
            throw error("host", "must be a host name, not '" + host + "'");
        Tls tls;
        String t = o.getOrDefault("tls", "starttls").trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "starttls" -> tls = Tls.STARTTLS;
            case "direct" -> tls = Tls.DIRECT;
            case "none" -> tls = Tls.NONE;
            default -> throw error("tls", "must be starttls, direct or none, got '" + t + "'");
        }
        int port = o.containsKey("port") ? integer(o, "port") : tls == Tls.DIRECT ? DEFAULT_DIRECT_PORT : DEFAULT_PORT;
        if (port < 1 || port > 65535) throw error("port", "must be between 1 and 65535, got " + port);
        String nick = o.getOrDefault("nick", "clawgate").trim();
        if (nick.isEmpty() || nick.length() > 64 || nick.chars().anyMatch(c -> c < 0x20)) {
            throw error("nick", "must be 1 to 64 printable characters, got '" + nick + "'");
        }
        List<String> rooms = new ArrayList<>();
        for (String r : o.getOrDefault("rooms", "").split(",")) {
            String room = r.trim().toLowerCase(Locale.ROOT);
            if (room.isEmpty()) continue;
            if (!BARE_JID.matcher(room).matches())
                throw error(
                        "rooms", "names '" + room + "', which is not a room's bare JID (room@conference.example.org)");
            if (!rooms.contains(room)) rooms.add(room);
        }
        int textLimit = o.containsKey("text_limit") ? integer(o, "text_limit") : DEFAULT_TEXT_LIMIT;
        if (textLimit < 64 || textLimit > MAX_TEXT_LIMIT)
            throw error("text_limit", "must be between 64 and " + MAX_TEXT_LIMIT + ", got " + textLimit);
        return new XmppSettings(
                jid == null ? null : jid.toLowerCase(Locale.ROOT),
                password,
                host,
                port,
                tls,
                List.copyOf(rooms),
                nick,
                textLimit);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static int integer(Map<String, String> o, String key) {
        try {
            return Integer.parseInt(o.get(key).trim());
        } catch (NumberFormatException e) {
            throw error(key, "must be a whole number, got '" + o.get(key) + "'");
        }
    }

    private static IllegalArgumentException error(String key, String what) {
        return new IllegalArgumentException("channels.xmpp." + key + " " + what);
    }
}

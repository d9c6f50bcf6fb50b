package dev.clawgate.channel.irc;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code [channels.irc]} (SPEC CH-7): where to connect, who to be, and which channels to join. The access keys
 * ({@code dm_policy}, {@code group_policy}, {@code allowed_users}) are the ones every channel has, read by the server's
 * loader, and so are not declared here.
 *
 * @param password the server password (PASS), or null
 * @param saslUser SASL PLAIN account, or null for no SASL
 * @param channels the channels to join, e.g. {@code #clawgate}
 * @param textLimit the most UTF-8 bytes of one reply payload (it is then cut to lines that fit)
 */
record IrcSettings(
        String server,
        int port,
        boolean tls,
        String nick,
        String username,
        String realname,
        String password,
        String saslUser,
        String saslPassword,
        List<String> channels,
        int textLimit) {

    static final int DEFAULT_PORT = 6667;
    static final int DEFAULT_TLS_PORT = 6697;
    static final int DEFAULT_TEXT_LIMIT = 2000;
    static final int MAX_TEXT_LIMIT = 16_000;
    /** RFC 2812 2.3.1: a nick starts with a letter or special, then letters, digits, specials and '-'. */
    private static final Pattern NICK = Pattern.compile("[A-Za-z\\[\\]\\\\`_^{|}][A-Za-z0-9\\[\\]\\\\`_^{|}-]*");
    /** RFC 2812 1.3: a channel name starts with &, #, + or !, and holds no space, comma, BEL or colon. */
    private static final Pattern CHANNEL = Pattern.compile("[#&+!][^\\s,\\x07:]{1,49}");

    private static final Pattern USERNAME = Pattern.compile("[^\\s@\\x00\\r\\n]+");

    @Override
    public String toString() {
        return "IrcSettings[server=" + server + ", port=" + port + ", tls=" + tls + ", nick=" + nick + ", channels="
                + channels + ", sasl=" + (saslUser != null) + "]";
    }

    static List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("server", "The IRC server's host name, e.g. irc.libera.chat."),
                ChannelOption.integer("port", "The server's port: 6667 by default, 6697 with tls.")
                        .withDefault(DEFAULT_PORT),
                ChannelOption.bool("tls", "Connect with TLS (certificate checked against the JVM's trust store).")
                        .withDefault(false),
                ChannelOption.string("nick", "The bot's nick; a _ is added while it is taken.")
                        .withDefault("clawgate"),
                ChannelOption.string("username", "The user name (USER); the nick when unset."),
                ChannelOption.string("realname", "The real name (USER's last field).")
                        .withDefault("Clawgate"),
                ChannelOption.string("password", "The server password (PASS), if the server wants one.")
                        .asSecret(),
                ChannelOption.string("sasl_user", "The SASL PLAIN account name; unset for no SASL."),
                ChannelOption.string("sasl_password", "The SASL PLAIN password.")
                        .asSecret(),
                ChannelOption.list("channels", "The channels to join, e.g. [\"#clawgate\", \"#help\"]."),
                ChannelOption.integer(
                                "text_limit", "The most UTF-8 bytes of one reply payload; it is cut to 512-byte lines.")
                        .withDefault(DEFAULT_TEXT_LIMIT));
    }

    /** @throws IllegalArgumentException starting with the key's full path */
    static void check(ChannelSettings settings) {
        read(settings.options(), false);
    }

    /** The settings to connect with: {@code server} is required here. */
    static IrcSettings of(ChannelSettings settings) {
        return read(settings.options(), true);
    }

    private static IrcSettings read(Map<String, String> o, boolean complete) {
        String server = blankToNull(o.get("server"));
        if (complete && server == null)
            throw error("server", "is required: the IRC server's host name, e.g. server = \"irc.libera.chat\"");
        if (server != null && (server.contains(" ") || server.contains("/")))
            throw error("server", "must be a host name, not '" + server + "'");
        boolean tls = bool(o, "tls");
        int port = o.containsKey("port") ? integer(o, "port") : tls ? DEFAULT_TLS_PORT : DEFAULT_PORT;
        if (port < 1 || port > 65535) throw error("port", "must be between 1 and 65535, got " + port);
        String nick = o.getOrDefault("nick", "clawgate").trim();
        if (!NICK.matcher(nick).matches())
            throw error(
                    "nick",
                    "must be an IRC nick (a letter first, then letters, digits, -[]\\`_^{|}), got '" + nick + "'");
        String username = blankToNull(o.get("username"));
        if (username == null) username = nick;
        if (!USERNAME.matcher(username).matches())
            throw error("username", "must have no space or @, got '" + username + "'");
        String realname = o.getOrDefault("realname", "Clawgate");
        if (realname.contains("\n") || realname.contains("\r")) throw error("realname", "must be one line");
        String password = blankToNull(o.get("password"));
        String saslUser = blankToNull(o.get("sasl_user"));
        String saslPassword = blankToNull(o.get("sasl_password"));
        if (saslUser != null && saslPassword == null && complete)
            throw error("sasl_password", "is required with sasl_user");
        if (saslUser == null && saslPassword != null) throw error("sasl_user", "is required with sasl_password");
        List<String> channels = new ArrayList<>();
        String list = o.getOrDefault("channels", "");
        for (String c : list.split(",")) {
            String name = c.trim();
            if (name.isEmpty()) continue;
            if (!CHANNEL.matcher(name).matches())
                throw error("channels", "names '" + name + "', which is not an IRC channel (e.g. #clawgate)");
            if (!channels.contains(name)) channels.add(name);
        }
        int textLimit = o.containsKey("text_limit") ? integer(o, "text_limit") : DEFAULT_TEXT_LIMIT;
        if (textLimit < 64 || textLimit > MAX_TEXT_LIMIT)
            throw error("text_limit", "must be between 64 and " + MAX_TEXT_LIMIT + " bytes, got " + textLimit);
        return new IrcSettings(
                server,
                port,
                tls,
                nick,
                username,
                realname,
                password,
                saslUser,
                saslPassword,
                List.copyOf(channels),
                textLimit);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static boolean bool(Map<String, String> o, String key) {
        String v = o.get(key);
        if (v == null) return false;
        if (v.equals("true") || v.equals("false")) return Boolean.parseBoolean(v);
        throw error(key, "must be true or false, got '" + v + "'");
    }

    private static int integer(Map<String, String> o, String key) {
        try {
            return Integer.parseInt(o.get(key).trim());
        } catch (NumberFormatException e) {
            throw error(key, "must be a whole number, got '" + o.get(key) + "'");
        }
    }

    private static IllegalArgumentException error(String key, String what) {
        return new IllegalArgumentException("channels.irc." + key + " " + what);
    }
}

package dev.clawgate.channel.email;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code [channels.email]} (SPEC CH-9): the mailbox read over IMAP, the SMTP server replies go through, one account for
 * both. The access keys ({@code dm_policy}, {@code allowed_users}) are the ones every channel has, read by the server's
 * loader; {@code allowed_users} lists sender addresses.
 *
 * @param from the address replies are sent from; the username when it is an address
 * @param folder the IMAP folder read, {@code INBOX} by default
 */
record EmailSettings(
        String imapHost,
        int imapPort,
        String smtpHost,
        int smtpPort,
        String username,
        String password,
        Tls tls,
        String from,
        String folder) {

    /** none: plain (a local test server); starttls: upgrade on 143/587; implicit: TLS from the first byte (993/465). */
    enum Tls {
        NONE,
        STARTTLS,
        IMPLICIT
    }

    private static final Pattern ADDRESS = Pattern.compile("[^@\\s<>\"]+@[^@\\s<>\"]+");

    @Override
    public String toString() {
        return "EmailSettings[imap=" + imapHost + ":" + imapPort + ", smtp=" + smtpHost + ":" + smtpPort
                + ", username=" + username
                + ", tls=" + tls + ", from=" + from + ", folder=" + folder + "]";
    }

    static List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("imap_host", "The IMAP server's host name, e.g. imap.example.org."),
                ChannelOption.integer("imap_port", "The IMAP port: 143 (none, starttls) or 993 (implicit) by default."),
                ChannelOption.string("smtp_host", "The SMTP server's host name; the IMAP host when unset."),
                ChannelOption.integer(
                        "smtp_port", "The SMTP port: 587 (starttls), 465 (implicit) or 25 (none) by default."),
                ChannelOption.string("username", "The account name for IMAP and SMTP AUTH."),
                ChannelOption.string("password", "The account's password.").asSecret(),
                ChannelOption.string("tls", "none, starttls (required) or implicit (TLS from the first byte).")
                        .withDefault("starttls"),
                ChannelOption.string("from", "The address replies come from; the username when it is an address."),
                ChannelOption.string("folder", "The IMAP folder to read.").withDefault("INBOX"));
    }

    static void check(ChannelSettings settings) {
        read(settings.options(), false);
    }

    static EmailSettings of(ChannelSettings settings) {
        return read(settings.options(), true);
    }

    private static EmailSettings read(Map<String, String> o, boolean complete) {
        String imapHost = blankToNull(o.get("imap_host"));
        if (complete && imapHost == null)
            throw error("imap_host", "is required: the IMAP server, e.g. imap_host = \"imap.example.org\"");
        String username = blankToNull(o.get("username"));
        if (complete && username == null) throw error("username", "is required (the mailbox's login)");
        String password = blankToNull(o.get("password"));
        if (complete && password == null) throw error("password", "is required (the mailbox's password)");
        String t = o.getOrDefault("tls", "starttls").trim().toLowerCase(Locale.ROOT);
        Tls tls = switch (t) {
            case "none" -> Tls.NONE;
            case "starttls" -> Tls.STARTTLS;
            case "implicit" -> Tls.IMPLICIT;
            default -> throw error("tls", "must be none, starttls or implicit, got '" + t + "'");
        };
        int imapPort = o.containsKey("imap_port") ? port(o, "imap_port") : tls == Tls.IMPLICIT ? 993 : 143;
        String smtpHost = blankToNull(o.get("smtp_host"));
        if (smtpHost == null) smtpHost = imapHost;
        int smtpPort = o.containsKey("smtp_port")
                ? port(o, "smtp_port")
                : tls == Tls.IMPLICIT ? 465 : tls == Tls.STARTTLS ? 587 : 25;
        String from = blankToNull(o.get("from"));
        if (from == null && username != null && ADDRESS.matcher(username).matches()) from = username;
        if (complete && from == null) throw error("from", "is required when username is not an e-mail address");
        if (from != null && !ADDRESS.matcher(from).matches())
            throw error("from", "must be an e-mail address, got '" + from + "'");
        String folder = o.getOrDefault("folder", "INBOX").trim();
        if (folder.isEmpty()) throw error("folder", "must name an IMAP folder, e.g. INBOX");
        return new EmailSettings(imapHost, imapPort, smtpHost, smtpPort, username, password, tls, from, folder);
    }

    private static int port(Map<String, String> o, String key) {
        int p;
        try {
            p = Integer.parseInt(o.get(key).trim());
        } catch (NumberFormatException e) {
            throw error(key, "must be a whole number, got '" + o.get(key) + "'");
        }
        if (p < 1 || p > 65535) throw error(key, "must be between 1 and 65535, got " + p);
        return p;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static IllegalArgumentException error(String key, String what) {
        return new IllegalArgumentException("channels.email." + key + " " + what);
    }
}

package dev.clawgate.channel.email;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Found by {@link java.util.ServiceLoader}: builds the e-mail channel from {@code [channels.email]} (SPEC CH-9). */
public final class EmailChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return EmailChannel.NAME;
    }

    @Override
    public List<ChannelOption> options() {
        return EmailSettings.options();
    }

    @Override
    public void check(ChannelSettings settings) {
        EmailSettings.check(settings);
    }

    @Override
    public Channel create(ChannelSettings settings) {
        try {
            return new EmailChannel(EmailSettings.of(settings), Files.createTempDirectory("clawgate-email-media"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Attachments are kept under the gateway's data dir ({@code media/email}). */
    @Override
    public Channel create(ChannelSettings settings, Path dataDir) {
        return new EmailChannel(
                EmailSettings.of(settings), dataDir.resolve("media").resolve("email"));
    }

    /** Settings complete, and the IMAP and SMTP ports accept a TCP connection (SPEC OP-4). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        EmailSettings s;
        try {
            s = EmailSettings.of(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.email]");
        }
        List<ChannelProbe.Finding> findings = new ArrayList<>();
        findings.addAll(reach("IMAP", s.imapHost(), s.imapPort(), "imap_host and imap_port")
                .findings());
        findings.addAll(reach("SMTP", s.smtpHost(), s.smtpPort(), "smtp_host and smtp_port")
                .findings());
        return new ChannelProbe(findings);
    }

    private static ChannelProbe reach(String what, String host, int port, String keys) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5000);
            return ChannelProbe.ok(what + " server " + host + ":" + port + " accepts connections");
        } catch (IOException e) {
            return ChannelProbe.problem(
                    "cannot reach the " + what + " server " + host + ":" + port + ": " + e.getMessage(),
                    "check channels.email." + keys.replace(" and ", " and channels.email.") + " and the network");
        }
    }
}

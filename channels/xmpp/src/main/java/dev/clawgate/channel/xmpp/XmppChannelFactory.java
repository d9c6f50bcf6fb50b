package dev.clawgate.channel.xmpp;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/** Found by {@link java.util.ServiceLoader}: builds the XMPP channel from {@code [channels.xmpp]} (SPEC CH-8). */
public final class XmppChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return XmppChannel.NAME;
    }

    @Override
    public List<ChannelOption> options() {
        return XmppSettings.options();
    }

    @Override
    public void check(ChannelSettings settings) {
        XmppSettings.check(settings);
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return new XmppChannel(XmppSettings.of(settings));
    }

    /** Settings complete, and the server's port accepts a TCP connection (SPEC OP-4). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        XmppSettings s;
        try {
            s = XmppSettings.of(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.xmpp]");
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(s.connectHost(), s.port()), 5000);
            return ChannelProbe.ok("XMPP server " + s.connectHost() + ":" + s.port() + " accepts connections");
        } catch (IOException e) {
            return ChannelProbe.problem(
                    "cannot reach the XMPP server " + s.connectHost() + ":" + s.port() + ": " + e.getMessage(),
                    "check channels.xmpp.host, port and the network");
        }
    }
}

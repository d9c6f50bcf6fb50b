package dev.clawgate.channel.irc;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/** Found by {@link java.util.ServiceLoader}: builds the IRC channel from {@code [channels.irc]} (SPEC CH-7). */
public final class IrcChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return IrcChannel.NAME;
    }

    @Override
    public List<ChannelOption> options() {
        return IrcSettings.options();
    }

    @Override
    public void check(ChannelSettings settings) {
        IrcSettings.check(settings);
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return new IrcChannel(IrcSettings.of(settings));
    }

    /** Settings complete, and the server's port accepts a TCP connection (SPEC OP-4). */
    @Override
    public ChannelProbe probe(ChannelSettings settings) {
        IrcSettings s;
        try {
            s = IrcSettings.of(settings);
        } catch (IllegalArgumentException e) {
            return ChannelProbe.problem(e.getMessage(), "set the key the message names in [channels.irc]");
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(s.server(), s.port()), 5000);
            return ChannelProbe.ok("IRC server " + s.server() + ":" + s.port() + " accepts connections");
        } catch (IOException e) {
            return ChannelProbe.problem(
                    "cannot reach the IRC server " + s.server() + ":" + s.port() + ": " + e.getMessage(),
                    "check channels.irc.server, port and the network");
        }
    }
}

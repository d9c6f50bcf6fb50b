package dev.clawgate.channel.irc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/** The client's socket to the server: plain, or TLS with the server's name verified (SPEC CH-7). */
final class IrcSockets {
    private IrcSockets() {}

    /** Connects within 15 s; a read waits at most {@code readIdle}. */
    static Socket open(IrcSettings settings, Duration readIdle) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(settings.server(), settings.port()), (int)
                Duration.ofSeconds(15).toMillis());
        plain.setSoTimeout((int) readIdle.toMillis());
        plain.setKeepAlive(true);
        if (!settings.tls()) return plain;
        SSLSocket tls = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                .createSocket(plain, settings.server(), settings.port(), true);
        SSLParameters p = tls.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        tls.setSSLParameters(p);
        tls.startHandshake();
        return tls;
    }
}

package dev.clawgate.testkit.xmpp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP relay between a client and a real server, whose connections a test can cut at once
 * ({@link #cutAll()}): the network dropping under a client while the server keeps running, so the server may still hold
 * the session (XEP-0198 hibernation, an IMAP mailbox) when the client comes back. New connections are relayed again
 * right after the cut.
 */
public final class CuttableRelay implements AutoCloseable {
    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Thread acceptor;

    private CuttableRelay(String targetHost, int targetPort) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.acceptor = Thread.ofVirtual().name("relay-" + targetPort).start(this::accept);
    }

    public static CuttableRelay to(String host, int port) {
        try {
            return new CuttableRelay(host, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Client connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(targetHost, targetPort);
                open.add(client);
                open.add(server);
                accepted.incrementAndGet();
                Thread.ofVirtual().start(() -> pump(client, server));
                Thread.ofVirtual().start(() -> pump(server, client));
            } catch (IOException closed) {
                if (!listener.isClosed()) throw new UncheckedIOException(closed);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buf = new byte[8192];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException cut) {
            // the relay was cut or one side closed: the other side is closed below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Cuts every relayed connection: both sides see the stream end without a closing word. */
    public void cutAll() {
        for (Socket s : open) closeQuietly(s);
        open.clear();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException alreadyGone) {
            // closing a socket that is already closed has nothing left to do
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        cutAll();
        acceptor.interrupt();
    }
}

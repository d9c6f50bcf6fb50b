package dev.clawgate.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.1 client on a plain socket, as an attacker has one: any Host, Origin or Content-Type, a declared length the
 * body never reaches, a body sent a byte at a time. java.net.http refuses to send most of these.
 */
final class RawHttp implements AutoCloseable {
    /** A response as read off the socket; status 0 when the server closed without answering. */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(15_000);
    }

    /** A request head: the given headers, and {@code Connection: close} unless they name a Connection. */
    static String head(String method, String target, String host, String... headers) {
        StringBuilder sb = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        if (host != null) sb.append("Host: ").append(host).append("\r\n");
        boolean connection = false;
        for (String h : headers) {
            sb.append(h).append("\r\n");
            connection |= h.regionMatches(true, 0, "Connection:", 0, 11);
        }
        if (!connection) sb.append("Connection: close\r\n");
        return sb.append("\r\n").toString();
    }

    /** One whole request with a body and its Content-Length. */
    static Response exchange(int port, String method, String target, String host, byte[] body, String... headers)
            throws IOException {
        String[] all = new String[headers.length + 1];
        System.arraycopy(headers, 0, all, 0, headers.length);
        all[headers.length] = "Content-Length: " + body.length;
        try (RawHttp c = new RawHttp(port)) {
            c.send(head(method, target, host, all).getBytes(StandardCharsets.ISO_8859_1));
            c.send(body);
            return c.response();
        }
    }

    static Response get(int port, String target, String host, String... headers) throws IOException {
        try (RawHttp c = new RawHttp(port)) {
            c.send(head("GET", target, host, headers).getBytes(StandardCharsets.ISO_8859_1));
            return c.response();
        }
    }

    void send(byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Bytes the server sent that are waiting to be read. */
    int available() throws IOException {
        return socket.getInputStream().available();
    }

    /** Whether the server has closed the connection: a read sees the end of the stream (or a reset). */
    boolean closedByServer() throws IOException {
        socket.setSoTimeout(50);
        try {
            InputStream in = socket.getInputStream();
            while (true) {
                int b = in.read();
                if (b < 0) return true;
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Reads a response: its head, then its body by its length, its chunks or until the server closes; a 101 upgrade is
     * returned after its head.
     */
    Response response() throws IOException {
        socket.setSoTimeout(15_000);
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                byte[] h = head.toByteArray();
                int n = h.length;
                if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') break;
            }
        } catch (IOException e) {
            if (head.size() == 0) return new Response(0, Map.of(), "");
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        if (!text.endsWith("\r\n\r\n")) return new Response(0, Map.of(), text);
        String[] lines = text.strip().split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0)
                headers.put(
                        lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).strip());
        }
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        if (status == 101) return new Response(status, headers, "");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            String length = headers.get("content-length");
            if (length != null) {
                body.write(in.readNBytes(Integer.parseInt(length)));
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                int size;
                while ((size = Integer.parseInt(line(in).split(";")[0].strip(), 16)) > 0) {
                    body.write(in.readNBytes(size));
                    line(in);
                }
            } else {
                in.transferTo(body);
            }
        } catch (IOException e) {
            // a reset after the answer: what arrived is the answer
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') if (b != '\r') sb.append((char) b);
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

package dev.clawgate.core.channel.socket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * One WebSocket to a bot gateway that speaks {@code {"op": n, "d": ...}} JSON payloads (Discord, QQ; JDK
 * {@code java.net.http.WebSocket}): text frames joined into payloads and queued in order for the loop, a close queued
 * as a frame with its code, sends one at a time, and the heartbeat's ACK state. The platform's opcodes, intents and
 * close codes stay in its channel: it names the heartbeat and heartbeat-ACK opcodes here.
 */
public final class GatewaySocket implements WebSocket.Listener {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The platform's heartbeat opcodes: {@code beat} is sent, {@code ack} answers it. */
    public record HeartbeatOps(int beat, int ack) {}

    /** A payload ({@code op} and its JSON), or the end of the connection ({@code closeCode} not 0). */
    public record Frame(int op, JsonNode json, int closeCode, String reason) {}

    private final LinkedBlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    private final ReentrantLock sending = new ReentrantLock();
    private final StringBuilder partial = new StringBuilder();
    private final UnaryOperator<String> redact;
    private final HeartbeatOps ops;
    private final WebSocket socket;
    private volatile boolean acked = true;
    private volatile boolean zombie;
    private volatile boolean ended;

    /**
     * Opens the socket, waiting at most {@code connectTimeout} (plus 5 s for the upgrade).
     *
     * @param redact applied to error text that may carry a secret
     */
    public GatewaySocket(
            HttpClient http, URI url, Duration connectTimeout, HeartbeatOps ops, UnaryOperator<String> redact)
            throws IOException, InterruptedException {
        this.redact = redact;
        this.ops = ops;
        try {
            this.socket = http.newWebSocketBuilder()
                    .connectTimeout(connectTimeout)
                    .buildAsync(url, this)
                    .get(connectTimeout.toSeconds() + 5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(
                    "cannot open the Gateway WebSocket at " + url.getHost() + ":" + url.getPort() + ": "
                            + (e.getCause() == null ? e : e.getCause()),
                    e);
        }
    }

    /** The next frame, or null when none came within {@code wait}. */
    public Frame next(Duration wait) throws InterruptedException {
        return frames.poll(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
    }

    /** Sends {@code {"op": op, "d": d}}; false when the connection is gone. */
    public boolean send(int op, JsonNode d) {
        ObjectNode p = JSON.createObjectNode().put("op", op);
        p.set("d", d);
        sending.lock();
        try {
            socket.sendText(p.toString(), true).get(10, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | IllegalStateException e) {
            end(1006, "send failed: " + redact.apply(String.valueOf(e.getCause() == null ? e : e.getCause())));
            return false;
        } finally {
            sending.unlock();
        }
    }

    /** Sends a Heartbeat with the last sequence handled (null before any); its ACK is awaited from now. */
    public boolean heartbeatNow(long seq) {
        acked = false;
        return send(
                ops.beat(), seq == 0 ? JSON.nullNode() : JSON.getNodeFactory().numberNode(seq));
    }

    public boolean acked() {
        return acked;
    }

    /** The heartbeat found no ACK since the last beat: the loop closes this connection and resumes. */
    public void markZombie() {
        zombie = true;
        frames.add(new Frame(-1, JSON.nullNode(), 0, null));
    }

    public boolean zombie() {
        return zombie;
    }

    /**
     * Closes with {@code code} (the loops use 4000: a close with 1000 or 1001 would end the session, SPEC CH-5, CH-13)
     * and drops the socket without waiting for the platform's answer, which a zombied connection never sends.
     */
    public void close(int code, String reason) {
        if (!socket.isOutputClosed()) {
            try {
                socket.sendClose(code, reason).get(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException | IllegalStateException e) {
                // the close frame could not go: aborting below ends the connection all the same
            }
        }
        socket.abort();
        end(code, reason);
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            try {
                JsonNode p = JSON.readTree(text);
                int op = p.path("op").asInt(-1);
                if (op == ops.ack()) acked = true;
                else frames.add(new Frame(op, p, 0, null));
            } catch (IOException e) {
                // a payload that is not JSON: the Gateway never sends one; dropping the connection resumes cleanly
                end(4002, "a Gateway payload that is not JSON");
            }
        }
        ws.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
        end(status, reason);
        return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
        end(1006, "connection lost: " + redact.apply(error.toString()));
    }

    /**
     * Stops a gateway loop: closes its socket {@code current} (if any) with 4000, so the session stays resumable for
     * the next start, then interrupts {@code loop} and waits up to 5 s for it to end.
     */
    public static void stopLoop(GatewaySocket current, Thread loop) {
        if (current != null) current.close(4000, "stopping");
        if (loop != null) {
            loop.interrupt();
            try {
                loop.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void end(int code, String reason) {
        if (ended) return;
        ended = true;
        frames.add(new Frame(-1, JSON.nullNode(), code == 0 ? 1006 : code, reason));
    }
}

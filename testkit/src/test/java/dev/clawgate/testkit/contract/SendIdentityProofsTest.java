package dev.clawgate.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.MatrixRoom;
import dev.clawgate.testkit.matrix.MatrixUser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The send-identity proofs against a Matrix homeserver (sends idempotent by transaction id) and a line protocol that
 * names no message (SPEC OUT-5, OUT-7, OUT-8): they pass for adapters that do it right and fail for ones that do not.
 */
class SendIdentityProofsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private FakeMatrixHomeserver hs;
    private MatrixRoom room;
    private final AtomicLong turns = new AtomicLong();

    @BeforeEach
    void start() {
        hs = FakeMatrixHomeserver.start("clawbot");
        MatrixUser alice = hs.user("alice");
        room = hs.createRoom(alice, "talk", hs.bot());
        hs.joinBot(room);
    }

    @AfterEach
    void stop() {
        hs.close();
    }

    private OutboundMessage fresh(String replyTarget) {
        return new OutboundMessage(
                new OutboundTarget("test", null, replyTarget, null, null),
                "hello " + turns.get(),
                OutboundMessage.Kind.FINAL,
                turns.incrementAndGet());
    }

    /**
     * Sends with {@code PUT .../send/m.room.message/{txnId}}; reconciles by the echoed {@code unsigned.transaction_id}.
     */
    private final class MatrixSender implements MessageAdapter {
        private final HttpClient http = HttpClient.newHttpClient();
        private final boolean stableTxnIds;

        MatrixSender(boolean stableTxnIds) {
            this.stableTxnIds = stableTxnIds;
        }

        @Override
        public Set<Capability> capabilities() {
            return Set.of(Capability.TEXT, Capability.MESSAGE_SENDING_HOOKS, Capability.RECONCILE_UNKNOWN_SEND);
        }

        @Override
        public MessageReceipt send(OutboundMessage m, CancelToken cancel) throws DeliveryException {
            String txn = stableTxnIds ? m.idempotencyKey() : UUID.randomUUID().toString();
            JsonNode answer = call(
                    "PUT",
                    "/_matrix/client/v3/rooms/" + enc(m.target().replyTarget()) + "/send/m.room.message/" + enc(txn),
                    JSON.createObjectNode()
                            .put("msgtype", "m.text")
                            .put("body", m.text())
                            .toString());
            return MessageReceipt.of(answer.path("event_id").asText());
        }

        @Override
        public Reconciliation reconcileUnknownSend(OutboundMessage m, CancelToken cancel) throws DeliveryException {
            JsonNode page = call(
                    "GET",
                    "/_matrix/client/v3/rooms/" + enc(m.target().replyTarget()) + "/messages?dir=b&limit=50",
                    null);
            for (JsonNode e : page.path("chunk")) {
                if (m.idempotencyKey()
                        .equals(e.path("unsigned").path("transaction_id").asText(null))) {
                    return new Reconciliation.Found(
                            MessageReceipt.of(e.path("event_id").asText()));
                }
            }
            return new Reconciliation.NotSent();
        }

        private JsonNode call(String method, String path, String body) throws DeliveryException {
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(hs.baseUrl() + path))
                        .header("Authorization", "Bearer " + hs.botLogin().accessToken());
                b.method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
                HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200)
                    throw new DeliveryException(method + " " + path + ": " + r.statusCode(), true, null);
                return JSON.readTree(r.body());
            } catch (IOException e) {
                throw new DeliveryException(e.toString(), false, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DeliveryException("interrupted", false, e);
            }
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Test
    void aMatrixSenderUsingTheIdempotencyKeyAsTransactionIdPassesTheReconcileProof() throws Exception {
        SendIdentityProofs.reconcileByClientId(
                new MatrixSender(true),
                () -> fresh(room.roomId()),
                hs,
                () -> hs.botMessages(room).size());
        assertThat(hs.botMessages(room)).hasSize(1);
    }

    @Test
    void aSenderWithAFreshTransactionIdPerAttemptFailsIt() {
        assertThatThrownBy(() -> SendIdentityProofs.reconcileByClientId(
                        new MatrixSender(false),
                        () -> fresh(room.roomId()),
                        hs,
                        () -> hs.botMessages(room).size()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("reconcile after the send");
    }

    /** A line protocol server (as IRC or an SMTP relay): takes one line per message and names none of them. */
    private static final class LineServer implements PlatformCallLog, AutoCloseable {
        final ServerSocket server;
        final List<PlatformCall> calls = new CopyOnWriteArrayList<>();

        LineServer() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept();
                            BufferedReader in = new BufferedReader(
                                    new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = in.readLine()) != null) calls.add(new PlatformCall("PRIVMSG", line, null));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        @Override
        public List<PlatformCall> calls() {
            return List.copyOf(calls);
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    /** Writes one line per payload; the receipt's identity is the payload's idempotency key, or nothing. */
    private static MessageAdapter lineSender(LineServer server, boolean namesTheMessage) {
        return (m, cancel) -> {
            int before = server.calls.size();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.server.getLocalPort());
                    OutputStream out = s.getOutputStream()) {
                out.write(("PRIVMSG " + m.target().replyTarget() + " :" + m.text() + "\r\n")
                        .getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new DeliveryException(e.toString(), false, e);
            }
            org.awaitility.Awaitility.await().until(() -> server.calls.size() > before);
            return MessageReceipt.of(namesTheMessage ? "local:" + m.idempotencyKey() : null);
        };
    }

    @Test
    void aLineSenderThatNamesEachPayloadByItsKeyPassesTheNoMessageIdProof() throws Exception {
        try (LineServer irc = new LineServer()) {
            SendIdentityProofs.withoutMessageIds(lineSender(irc, true), () -> fresh("#room"), irc);
            assertThat(irc.calls())
                    .hasSize(3)
                    .allSatisfy(c -> assertThat(c.body()).startsWith("PRIVMSG #room :hello"));
        }
    }

    @Test
    void aLineSenderWhoseReceiptsHaveNoIdentityFailsIt() throws Exception {
        try (LineServer irc = new LineServer()) {
            assertThatThrownBy(() ->
                            SendIdentityProofs.withoutMessageIds(lineSender(irc, false), () -> fresh("#room"), irc))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("adapter_returned_no_identity");
        }
    }
}

package dev.clawgate.testkit.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A fake WhatsApp Cloud API: the Graph API on a free loopback port ({@link #apiBase()}, the channel's {@code api_base})
 * and Meta's webhook pusher, which POSTs signed notifications of what users write, and of the status of what the
 * business sent, to the gateway. Tests create contacts and groups, write as users, inject Graph errors (24-hour window,
 * rate limits, token), move the clock, and read what the business sent. Calls are logged ({@link #calls()}) as
 * {@code messages}, {@code media_upload}, {@code media_url}, {@code media_download}, {@code media_delete},
 * {@code phone_number}, and the gateway's answers to pushes as {@value #WEBHOOK_ANSWER}.
 */
public final class FakeWhatsAppCloud implements PlatformCallLog, AutoCloseable {
    public static final String API_VERSION = "v21.0";
    /**
     * The {@link PlatformCall#method} of the gateway's answer to a webhook push; headers {@code :status},
     * {@code delivery-id}.
     */
    public static final String WEBHOOK_ANSWER = "webhook_answer";

    private final CloudState st;
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    private final MetaSignature signature;
    private final WebhookPusher pusher;
    private final WebhookPayloads payloads;

    /** What the gateway answered one request of the fake. */
    public record Answer(int status, String body) {}

    private FakeWhatsAppCloud(String accessToken, String appSecret, String phoneNumberId) throws IOException {
        this.st = new CloudState(accessToken, phoneNumberId, "15550783881", "102290129340398");
        this.signature = new MetaSignature(appSecret);
        this.payloads = new WebhookPayloads(st.wabaId, st.phoneNumberId, st.displayPhoneNumber);
        this.pusher = new WebhookPusher(signature, calls::add, executor);
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        http.setExecutor(executor);
        GraphApi api = new GraphApi(st, calls::add, this::origin, this::reportStatuses);
        http.createContext("/", api::handle);
        http.start();
    }

    public static FakeWhatsAppCloud start(String accessToken, String appSecret) {
        return start(accessToken, appSecret, "106540352242922");
    }

    public static FakeWhatsAppCloud start(String accessToken, String appSecret, String phoneNumberId) {
        try {
            return new FakeWhatsAppCloud(accessToken, appSecret, phoneNumberId);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake WhatsApp Cloud API", e);
        }
    }

    private String origin() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    /** {@code http://127.0.0.1:PORT/v21.0}: what {@code api_base} is for {@code https://graph.facebook.com/v21.0}. */
    public String apiBase() {
        return origin() + "/" + API_VERSION;
    }

    public String phoneNumberId() {
        return st.phoneNumberId;
    }

    public String displayPhoneNumber() {
        return st.displayPhoneNumber;
    }

    // ---- the webhook -------------------------------------------------------------------------

    /** Where notifications go: the gateway's webhook URL. */
    public FakeWhatsAppCloud deliverTo(URI webhook) {
        pusher.target(webhook);
        return this;
    }

    /**
     * Redelivery pauses double from {@code min} to {@code max}; a notification is given up after {@code maxAttempts}.
     */
    public FakeWhatsAppCloud retryBackoff(Duration min, Duration max, int maxAttempts) {
        pusher.backoff(min, max, maxAttempts);
        return this;
    }

    /** Meta's subscription check: {@code GET ?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...}. */
    public Answer verifyWebhook(URI webhook, String verifyToken, String challenge)
            throws IOException, InterruptedException {
        WebhookPusher.Answer a = pusher.verify(webhook, "subscribe", verifyToken, challenge);
        return new Answer(a.status(), a.body());
    }

    /** One POST of raw bytes with the given {@code X-Hub-Signature-256} value (null: none), no redelivery. */
    public Answer postOnce(byte[] body, String signatureHeader) throws IOException, InterruptedException {
        WebhookPusher.Answer a = pusher.postOnce(body, signatureHeader);
        return new Answer(a.status(), a.body());
    }

    /** The header value Meta would send for {@code body}. */
    public String sign(byte[] body) {
        return signature.sign(body);
    }

    public List<WebhookDelivery> deliveries() {
        return pusher.deliveries();
    }

    /** Pushes delivery {@code deliveryId} once more: the duplicate a receiver sees when Meta missed its 200. */
    public String redeliver(String deliveryId) {
        return pusher.redeliver(deliveryId, "redelivery");
    }

    // ---- the world ---------------------------------------------------------------------------

    public WhatsAppContact contact(String waId, String name) {
        WhatsAppContact c = new WhatsAppContact(waId, name);
        st.locked(() -> st.contacts.put(waId, c));
        return c;
    }

    /** A group with an opaque id, as the Groups API gives one. */
    public WhatsAppGroup group(String subject, WhatsAppContact... participants) {
        return st.locked(() -> {
            String raw = "capi_group:" + st.displayPhoneNumber + ":" + (st.groups.size() + 1) + ":" + System.nanoTime();
            String id = java.util.Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
            WhatsAppGroup g = new WhatsAppGroup(id, subject, List.of(participants));
            st.groups.put(id, g);
            return g;
        });
    }

    // ---- what users write: each returns the new message's wamid --------------------------------

    public String sendText(WhatsAppContact from, String text) {
        return inbound(from, null, "text", m -> m.putObject("text").put("body", text));
    }

    /** A reply: {@code context.from} is the business number, {@code context.id} the message replied to. */
    public String replyTo(WhatsAppContact from, String wamid, String text) {
        return inbound(from, null, "text", m -> {
            m.putObject("context").put("from", st.displayPhoneNumber).put("id", wamid);
            m.putObject("text").put("body", text);
        });
    }

    public String sendImage(WhatsAppContact from, byte[] bytes, String mimeType, String caption) {
        return inbound(from, null, "image", m -> media(m.putObject("image"), bytes, mimeType, null, caption));
    }

    public String sendDocument(WhatsAppContact from, String fileName, String mimeType, byte[] bytes, String caption) {
        return inbound(
                from,
                null,
                "document",
                m -> media(m.putObject("document").put("filename", fileName), bytes, mimeType, fileName, caption));
    }

    /** A voice note ({@code voice: true}) or an audio file. */
    public String sendAudio(WhatsAppContact from, byte[] bytes, String mimeType, boolean voice) {
        return inbound(
                from, null, "audio", m -> media(m.putObject("audio").put("voice", voice), bytes, mimeType, null, null));
    }

    /** A reaction on {@code wamid}; an empty emoji removes it. */
    public String react(WhatsAppContact from, String wamid, String emoji) {
        return inbound(
                from,
                null,
                "reaction",
                m -> m.putObject("reaction").put("message_id", wamid).put("emoji", emoji));
    }

    /** A text in a group: the message carries {@code group_id}; {@code from} and the contact are the participant. */
    public String sendGroupText(WhatsAppGroup group, WhatsAppContact from, String text) {
        return inbound(from, group, "text", m -> m.putObject("text").put("body", text));
    }

    private void media(ObjectNode n, byte[] bytes, String mimeType, String fileName, String caption) {
        CloudState.Media media = st.locked(() -> st.addMedia(bytes, mimeType, fileName));
        n.put("mime_type", mimeType).put("sha256", media.sha256Base64()).put("id", media.id());
        if (caption != null) n.put("caption", caption);
    }

    private String inbound(WhatsAppContact from, WhatsAppGroup group, String type, Consumer<ObjectNode> content) {
        ObjectNode payload = st.locked(() -> {
            String wamid = st.newWamid();
            ObjectNode m = payloads.message(from, wamid, st.nowSeconds(), type);
            if (group != null) m.put("group_id", group.groupId());
            content.accept(m);
            st.inboundIds.add(wamid);
            if (group == null) st.lastInboundMillis.put(from.waId(), st.now()); // opens the customer-service window
            return payloads.messages(from, List.of(m));
        });
        pusher.push(
                group == null ? from.waId() : group.groupId(),
                payload.toString().getBytes(StandardCharsets.UTF_8));
        return payload.path("entry")
                .get(0)
                .path("changes")
                .get(0)
                .path("value")
                .path("messages")
                .get(0)
                .path("id")
                .asText();
    }

    // ---- statuses of what the business sent -----------------------------------------------------

    /** The statuses pushed after each accepted message, in order (default {@code sent}, {@code delivered}). */
    public void autoStatuses(String... statuses) {
        st.locked(() -> st.autoStatuses = List.of(statuses));
    }

    /** The customer read the message: a {@code read} status is pushed. */
    public void markRead(String wamid) {
        pushStatus(wamid, "read", null);
    }

    /** The message failed after it was accepted: a {@code failed} status with {@code error} is pushed. */
    public void failDelivery(String wamid, GraphError error) {
        pushStatus(wamid, "failed", error);
    }

    private void reportStatuses(OutboundMessage m, GraphError failure) {
        if (failure != null) {
            pushStatus(m.wamid(), "failed", failure);
            return;
        }
        for (String s : st.locked(() -> st.autoStatuses)) pushStatus(m.wamid(), s, null);
    }

    private void pushStatus(String wamid, String status, GraphError error) {
        ObjectNode payload = st.locked(() -> {
            OutboundMessage m = st.sent.get(wamid);
            if (m == null) throw new IllegalArgumentException("no sent message " + wamid);
            st.sent.put(
                    wamid,
                    new OutboundMessage(
                            m.wamid(),
                            m.recipientType(),
                            m.to(),
                            m.type(),
                            m.request(),
                            status,
                            error == null ? null : error.code()));
            return payloads.status(m, status, st.nowSeconds(), error);
        });
        String lane = payload.path("entry")
                .get(0)
                .path("changes")
                .get(0)
                .path("value")
                .path("statuses")
                .get(0)
                .path("recipient_id")
                .asText();
        if (pusher.hasTarget()) pusher.push(lane, payload.toString().getBytes(StandardCharsets.UTF_8));
    }

    // ---- failures and time -------------------------------------------------------------------

    /** The next call of {@code endpoint} ({@code messages}, {@code media_upload}...) fails with {@code error}. */
    public void failNext(String endpoint, GraphError error) {
        st.locked(() ->
                st.failures.computeIfAbsent(endpoint, e -> new ArrayDeque<>()).add(error));
    }

    /**
     * How a send outside the 24-hour window fails: by default asynchronously, as the Cloud API reports 131047 (accepted
     * with a wamid, then a {@code failed} status webhook); or synchronously, in the Graph error envelope.
     */
    public void windowErrorsSynchronous(boolean synchronous) {
        st.locked(() -> st.windowErrorsSynchronous = synchronous);
    }

    /** From now on every call gets 401 code 190 (subcode 463, expired session). */
    public void expireToken() {
        st.locked(() -> st.tokenExpired = true);
    }

    /** Moves the clock forward: the 24-hour windows and media URL lifetimes follow it. */
    public void advanceClock(Duration by) {
        st.locked(() -> st.clockOffsetMillis += by.toMillis());
    }

    // ---- what the business did ---------------------------------------------------------------

    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    /** The JSON bodies of one endpoint's calls, in order. */
    public List<JsonNode> calls(String endpoint) {
        List<JsonNode> out = new ArrayList<>();
        for (PlatformCall c : calls) {
            if (!c.method().equals(endpoint) || c.body().isEmpty()) continue;
            try {
                out.add(WebhookPayloads.JSON.readTree(c.body()));
            } catch (IOException e) {
                throw new IllegalStateException("a " + endpoint + " call was logged with a body that is not JSON", e);
            }
        }
        return out;
    }

    /** Every message the fake accepted, in order, with its latest status. */
    public List<OutboundMessage> sent() {
        return st.locked(() -> List.copyOf(st.sent.values()));
    }

    public List<OutboundMessage> sentTo(WhatsAppContact contact) {
        return sent().stream()
                .filter(m -> m.recipientType().equals("individual") && m.to().equals(contact.waId()))
                .toList();
    }

    public List<OutboundMessage> sentTo(WhatsAppGroup group) {
        return sent().stream()
                .filter(m -> m.recipientType().equals("group") && m.to().equals(group.groupId()))
                .toList();
    }

    /** The bytes of a media object (uploaded by the business or sent by a user), or null. */
    public byte[] media(String mediaId) {
        return st.locked(() -> {
            CloudState.Media m = st.media.get(mediaId);
            return m == null ? null : m.bytes().clone();
        });
    }

    /** The user messages the business marked as read, in order. */
    public List<String> readMarks() {
        return st.locked(() -> List.copyOf(st.readMarks));
    }

    /** The user messages the business showed a typing indicator on. */
    public List<String> typingIndicators() {
        return st.locked(() -> List.copyOf(st.typingIndicators));
    }

    @Override
    public void close() {
        pusher.close();
        http.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "FakeWhatsAppCloud[" + apiBase() + ", phone_number_id=" + st.phoneNumberId + "]";
    }
}

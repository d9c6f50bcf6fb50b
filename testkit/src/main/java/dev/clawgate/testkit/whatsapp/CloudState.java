package dev.clawgate.testkit.whatsapp;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/** The fake Cloud API's state: contacts, groups, windows, sent messages, media. Callers hold {@link #lock}. */
final class CloudState {
    /** "Customer service windows": free-form messages only within 24 hours of the customer's last message. */
    static final Duration SERVICE_WINDOW = Duration.ofHours(24);
    /** "Media": a media URL is valid for 5 minutes after it was retrieved. */
    static final Duration MEDIA_URL_LIFETIME = Duration.ofMinutes(5);

    final ReentrantLock lock = new ReentrantLock();
    final String accessToken;
    final String phoneNumberId;
    final String displayPhoneNumber;
    final String wabaId;
    final Map<String, WhatsAppContact> contacts = new LinkedHashMap<>();
    final Map<String, WhatsAppGroup> groups = new LinkedHashMap<>();
    final Map<String, Long> lastInboundMillis = new HashMap<>();
    final Set<String> inboundIds = new HashSet<>();
    final Map<String, OutboundMessage> sent = new LinkedHashMap<>();
    final Map<String, Media> media = new LinkedHashMap<>();
    final Map<String, Long> mediaUrlIssuedMillis = new HashMap<>();
    final List<String> readMarks = new ArrayList<>();
    final List<String> typingIndicators = new ArrayList<>();
    final Map<String, ArrayDeque<GraphError>> failures = new HashMap<>();
    List<String> autoStatuses = List.of("sent", "delivered");
    boolean windowErrorsSynchronous;
    boolean tokenExpired;
    long clockOffsetMillis;
    private long nextId = 1;

    /** An uploaded (or user-sent) media object. */
    record Media(String id, byte[] bytes, String mimeType, String fileName) {
        String sha256Base64() {
            return Base64.getEncoder().encodeToString(sha256(bytes));
        }

        String sha256Hex() {
            return java.util.HexFormat.of().formatHex(sha256(bytes));
        }
    }

    CloudState(String accessToken, String phoneNumberId, String displayPhoneNumber, String wabaId) {
        this.accessToken = accessToken;
        this.phoneNumberId = phoneNumberId;
        this.displayPhoneNumber = displayPhoneNumber;
        this.wabaId = wabaId;
    }

    @FunctionalInterface
    interface Locked<T, E extends Exception> {
        T get() throws E;
    }

    <T, E extends Exception> T locked(Locked<T, E> action) throws E {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    long now() {
        return System.currentTimeMillis() + clockOffsetMillis;
    }

    long nowSeconds() {
        return now() / 1000;
    }

    /** {@code wamid.} and base64, the shape of WhatsApp message ids. */
    String newWamid() {
        String raw = "HBgL" + displayPhoneNumber + "FQIAERgS" + Long.toHexString(System.nanoTime()) + (nextId++);
        return "wamid." + Base64.getEncoder().encodeToString(raw.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** Media ids are numeric strings. */
    String newMediaId() {
        return Long.toString(1_000_000_000_000_000L + (nextId++) * 7_919L + (System.nanoTime() % 1000));
    }

    Media addMedia(byte[] bytes, String mimeType, String fileName) {
        Media m = new Media(newMediaId(), bytes.clone(), mimeType, fileName);
        media.put(m.id(), m);
        return m;
    }

    boolean insideWindow(String waId) {
        Long last = lastInboundMillis.get(waId);
        return last != null && now() - last < SERVICE_WINDOW.toMillis();
    }

    GraphError nextFailure(String endpoint) {
        ArrayDeque<GraphError> q = failures.get(endpoint);
        return q == null ? null : q.poll();
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}

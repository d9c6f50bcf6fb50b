package dev.clawgate.testkit.whatsapp;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Meta's webhook signature (Graph API webhooks, "Validate payloads"): {@code X-Hub-Signature-256: sha256=<hex>}, the
 * HMAC-SHA256 of the raw request body keyed with the app secret. Written on the platform's side, apart from the
 * gateway's verifier on purpose.
 */
public final class MetaSignature {
    public static final String HEADER = "X-Hub-Signature-256";

    private final byte[] appSecret;

    public MetaSignature(String appSecret) {
        this.appSecret = appSecret.getBytes(StandardCharsets.UTF_8);
    }

    public String sign(byte[] rawBody) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(appSecret, "HmacSHA256"));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(rawBody));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    public boolean matches(byte[] rawBody, String header) {
        return header != null
                && MessageDigest.isEqual(
                        sign(rawBody).getBytes(StandardCharsets.US_ASCII),
                        header.strip().getBytes(StandardCharsets.US_ASCII));
    }
}

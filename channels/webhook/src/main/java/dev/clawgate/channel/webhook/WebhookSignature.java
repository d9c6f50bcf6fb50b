package dev.clawgate.channel.webhook;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code X-Clawgate-Signature: sha256=<hex>}: HMAC-SHA256 of the raw body under the shared secret, the scheme GitHub
 * and most platforms use. Both directions sign this way.
 */
public final class WebhookSignature {
    public static final String HEADER = "X-Clawgate-Signature";
    private static final String PREFIX = "sha256=";
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public WebhookSignature(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** The header value for {@code body}. */
    public String sign(byte[] body) {
        return PREFIX + HexFormat.of().formatHex(mac(body));
    }

    /** Whether {@code header} is a valid signature of {@code body}; compares in constant time. */
    public boolean verifies(byte[] body, String header) {
        if (header == null) return false;
        String h = header.strip();
        if (!h.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) return false;
        byte[] given;
        try {
            given = HexFormat.of().parseHex(h.substring(PREFIX.length()).toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException notHex) {
            return false;
        }
        return MessageDigest.isEqual(mac(body), given);
    }

    private byte[] mac(byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            // every JDK ships HmacSHA256 and accepts any non-empty key
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}

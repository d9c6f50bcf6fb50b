package dev.clawgate.testkit.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The platform's side of {@code X-Clawgate-Signature: sha256=<hex>}, written apart from the gateway's on purpose. */
public final class PlatformSignature {
    public static final String HEADER = "X-Clawgate-Signature";

    private final byte[] secret;

    public PlatformSignature(String secret) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    public String sign(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    public boolean matches(byte[] body, String header) {
        return header != null
                && MessageDigest.isEqual(
                        sign(body).getBytes(StandardCharsets.US_ASCII),
                        header.strip().getBytes(StandardCharsets.US_ASCII));
    }
}

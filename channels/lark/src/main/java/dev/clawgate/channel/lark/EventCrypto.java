package dev.clawgate.channel.lark;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The gateway's side of the event security of the open platform (SPEC CH-11, IN-5): {@code X-Lark-Signature} must be
 * the hex SHA-256 of {@code X-Lark-Request-Timestamp + X-Lark-Request-Nonce + encrypt_key + raw body}, compared in
 * constant time; {@code {"encrypt": ...}} is base64 of a 16-byte IV and AES-256-CBC (PKCS#7) under the SHA-256 of
 * {@code encrypt_key}.
 */
final class EventCrypto {
    static final String SIGNATURE = "X-Lark-Signature";
    static final String TIMESTAMP = "X-Lark-Request-Timestamp";
    static final String NONCE = "X-Lark-Request-Nonce";

    private final String encryptKey;
    private final SecretKeySpec key;

    EventCrypto(String encryptKey) {
        this.encryptKey = encryptKey;
        try {
            this.key = new SecretKeySpec(
                    MessageDigest.getInstance("SHA-256").digest(encryptKey.getBytes(StandardCharsets.UTF_8)), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    boolean signatureHolds(String timestamp, String nonce, String signature, byte[] body) {
        if (timestamp == null || nonce == null || signature == null) return false;
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update((timestamp + nonce + encryptKey).getBytes(StandardCharsets.UTF_8));
            d.update(body);
            byte[] expected = HexFormat.of().formatHex(d.digest()).getBytes(StandardCharsets.US_ASCII);
            return MessageDigest.isEqual(
                    expected, signature.strip().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /** The plain JSON, or null when it does not decrypt under our key. */
    String decrypt(String encrypted) {
        try {
            byte[] all = Base64.getDecoder().decode(encrypted.strip());
            if (all.length < 32 || all.length % 16 != 0) return null;
            Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding");
            c.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(all, 0, 16));
            return new String(c.doFinal(all, 16, all.length - 16), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return null;
        }
    }
}

package dev.clawgate.testkit.lark;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The platform's side of Lark/Feishu event security (open platform, "Event subscription": encrypted push and signature
 * check), written apart from the gateway's verifier on purpose.
 *
 * <ul>
 *   <li>Signature: {@code X-Lark-Signature} is the hex SHA-256 of {@code timestamp + nonce + encrypt_key + body}, with
 *       {@code X-Lark-Request-Timestamp} and {@code X-Lark-Request-Nonce}.
 *   <li>Encryption: the body is {@code {"encrypt": base64(iv(16) + AES-256-CBC/PKCS7(json))}}, the key the SHA-256 of
 *       {@code encrypt_key}.
 * </ul>
 */
public final class LarkCrypto {
    public static final String SIGNATURE = "X-Lark-Signature";
    public static final String TIMESTAMP = "X-Lark-Request-Timestamp";
    public static final String NONCE = "X-Lark-Request-Nonce";
    private static final SecureRandom RANDOM = new SecureRandom();

    private LarkCrypto() {}

    public static String sign(String timestamp, String nonce, String encryptKey, byte[] body) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update((timestamp + nonce + encryptKey).getBytes(StandardCharsets.UTF_8));
            d.update(body);
            return HexFormat.of().formatHex(d.digest());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** base64(iv + AES-256-CBC(plain)) under SHA-256(encryptKey). */
    public static String encrypt(String encryptKey, String plain) {
        try {
            byte[] iv = new byte[16];
            RANDOM.nextBytes(iv);
            Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding");
            c.init(Cipher.ENCRYPT_MODE, key(encryptKey), new IvParameterSpec(iv));
            byte[] enc = c.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[16 + enc.length];
            System.arraycopy(iv, 0, out, 0, 16);
            System.arraycopy(enc, 0, out, 16, enc.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES unavailable", e);
        }
    }

    private static SecretKeySpec key(String encryptKey) throws GeneralSecurityException {
        return new SecretKeySpec(
                MessageDigest.getInstance("SHA-256").digest(encryptKey.getBytes(StandardCharsets.UTF_8)), "AES");
    }
}

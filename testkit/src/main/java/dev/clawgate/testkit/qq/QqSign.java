package dev.clawgate.testkit.qq;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * How the QQ platform signs a callback (bot docs, "事件订阅与通知", webhook mode): an ed25519 key whose 32-byte seed is the
 * bot secret repeated until long enough; {@code X-Signature-Ed25519} is the hex signature of
 * {@code X-Signature-Timestamp} followed by the body. Also checks the bot's answer to the op 13 validation request.
 */
public final class QqSign {
    public static final String SIGNATURE = "X-Signature-Ed25519";
    public static final String TIMESTAMP = "X-Signature-Timestamp";

    private final KeyPair keys;

    public QqSign(String secret) {
        byte[] s = secret.getBytes(StandardCharsets.UTF_8);
        byte[] seed = new byte[32];
        for (int i = 0; i < seed.length; i++) seed[i] = s[i % s.length];
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("Ed25519");
            g.initialize(NamedParameterSpec.ED25519, new SecureRandom() {
                @Override
                public void nextBytes(byte[] bytes) {
                    System.arraycopy(seed, 0, bytes, 0, Math.min(bytes.length, seed.length));
                }
            });
            keys = g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The headers QQ adds to a push of {@code body}. */
    public Map<String, String> headersFor(byte[] body) {
        String ts = String.valueOf(System.currentTimeMillis() / 1000);
        Map<String, String> h = new HashMap<>();
        h.put(TIMESTAMP, ts);
        h.put(SIGNATURE, sign(concat(ts.getBytes(StandardCharsets.UTF_8), body)));
        h.put("X-Bot-Appid", "fake");
        return h;
    }

    public String sign(byte[] message) {
        try {
            Signature sig = Signature.getInstance("Ed25519");
            sig.initSign(keys.getPrivate());
            sig.update(message);
            return HexFormat.of().formatHex(sig.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code hex} is this key's signature of {@code message}. */
    public boolean verifies(byte[] message, String hex) {
        try {
            Signature v = Signature.getInstance("Ed25519");
            v.initVerify(keys.getPublic());
            v.update(message);
            return v.verify(HexFormat.of().parseHex(hex));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

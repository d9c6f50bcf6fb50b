package dev.clawgate.channel.qq;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.util.HexFormat;

/**
 * The webhook's ed25519 key (SPEC CH-13, IN-5), as the QQ bot docs derive it: the seed is the bot secret repeated until
 * it holds 32 bytes, cut to 32. QQ signs each push with it ({@code X-Signature-Ed25519}, hex, over
 * {@code X-Signature-Timestamp + body}); the gateway signs the validation answer ({@code event_ts + plain_token}). The
 * JDK's own Ed25519 does both: the key pair is generated from the seed by handing the generator exactly those bytes.
 */
final class QqSigner {
    private final KeyPair keys;

    QqSigner(String secret) {
        byte[] s = secret.getBytes(StandardCharsets.UTF_8);
        if (s.length == 0) throw new IllegalArgumentException("an empty secret seeds no key");
        byte[] seed = new byte[32];
        for (int i = 0; i < seed.length; i++) seed[i] = s[i % s.length];
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("Ed25519");
            g.initialize(NamedParameterSpec.ED25519, new SeedRandom(seed));
            keys = g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no Ed25519", e);
        }
    }

    /** Hex of the signature of {@code message}. */
    String sign(byte[] message) {
        try {
            Signature sig = Signature.getInstance("Ed25519");
            sig.initSign(keys.getPrivate());
            sig.update(message);
            return HexFormat.of().formatHex(sig.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    /** Whether {@code hexSignature} signs {@code timestamp + body} under this key. */
    boolean verifies(String timestamp, byte[] body, String hexSignature) {
        if (timestamp == null || hexSignature == null || hexSignature.length() != 128) return false;
        byte[] sig;
        try {
            sig = HexFormat.of().parseHex(hexSignature);
        } catch (IllegalArgumentException notHex) {
            return false;
        }
        byte[] ts = timestamp.getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[ts.length + body.length];
        System.arraycopy(ts, 0, message, 0, ts.length);
        System.arraycopy(body, 0, message, ts.length, body.length);
        try {
            Signature v = Signature.getInstance("Ed25519");
            v.initVerify(keys.getPublic());
            v.update(message);
            return v.verify(sig);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** Hands the key generator the seed and nothing else. */
    private static final class SeedRandom extends SecureRandom {
        private final byte[] seed;

        SeedRandom(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) throw new IllegalStateException("Ed25519 asked for " + bytes.length);
            System.arraycopy(seed, 0, bytes, 0, seed.length);
        }
    }
}

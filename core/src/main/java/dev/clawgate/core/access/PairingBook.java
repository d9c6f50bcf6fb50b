package dev.clawgate.core.access;

import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.Store;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** The pairing state the {@link AccessGate} reads and writes (SPEC IN-5); production keeps it in the {@link Store}. */
public interface PairingBook {

    /** Whether the owner approved this sender on this channel account. */
    boolean isApproved(String channel, String account, String sender);

    /** The sender's pending, unexpired code, if any. */
    Optional<Pairing> pending(String channel, String account, String sender, Instant now);

    /** How many codes of the channel account are pending and unexpired. */
    int pendingCount(String channel, String account, Instant now);

    /**
     * Records a pending code; returns the sender's existing pending code instead if there is one. Throws
     * {@link IllegalArgumentException} when the code is already in use.
     */
    Pairing create(String channel, String account, String sender, String code, Instant now, Instant expiresAt);

    /** The pairing state kept in {@code store}. */
    static PairingBook backedBy(Store store) {
        Objects.requireNonNull(store, "store");
        return new PairingBook() {
            @Override
            public boolean isApproved(String channel, String account, String sender) {
                return store.pairing().isApproved(channel, account, sender);
            }

            @Override
            public Optional<Pairing> pending(String channel, String account, String sender, Instant now) {
                return store.pairing().pending(channel, account, sender, now);
            }

            @Override
            public int pendingCount(String channel, String account, Instant now) {
                return store.pairing().pendingCount(channel, account, now);
            }

            @Override
            public Pairing create(
                    String channel, String account, String sender, String code, Instant now, Instant expiresAt) {
                return store.pairing().create(channel, account, sender, code, now, expiresAt);
            }
        };
    }
}

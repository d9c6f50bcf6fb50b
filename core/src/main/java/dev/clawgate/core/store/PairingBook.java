package dev.clawgate.core.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Pairing codes and paired senders (SPEC IN-5): handed out by {@link Store#pairing()}. Codes are matched ignoring case
 * and surrounding blanks ({@link Pairing#normaliseCode}); a pending pairing is "unexpired" while now &lt; expiresAt.
 * Every method is its own transaction; thread-safe.
 */
public interface PairingBook {

    /** The sender's pending, unexpired pairing on that channel account, if any. */
    Optional<Pairing> pending(String channel, String account, String sender, Instant now);

    /**
     * Records a pending pairing. If the sender already has a pending, unexpired one (another node or thread got there
     * first), that one is returned and nothing is added. Throws {@link IllegalArgumentException} when {@code code} is
     * already in use, so the caller can draw another.
     */
    Pairing create(String channel, String account, String sender, String code, Instant now, Instant expiresAt);

    /** How many pending, unexpired pairings the channel account has. */
    int pendingCount(String channel, String account, Instant now);

    /**
     * Pairings oldest first, with their status at the store clock's now. {@code includeExpired} false: only those
     * waiting for the owner (pending, unexpired); true: every pairing, also approved, rejected and expired ones.
     */
    List<Pairing> list(boolean includeExpired);

    /**
     * Approves a pending, unexpired pairing and records its sender as paired, so {@link #isApproved} admits them from
     * then on. Empty when no such code is pending.
     */
    Optional<Pairing> approve(String code, Instant now);

    /** Rejects a pending, unexpired pairing (at the store clock's now). Empty when no such code is pending. */
    Optional<Pairing> reject(String code);

    /** Whether the owner approved a pairing of this sender on this channel account. */
    boolean isApproved(String channel, String account, String sender);
}

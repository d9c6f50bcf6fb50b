package dev.clawgate.store.internal;

import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.PairingBook;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The {@link PairingBook} on either SQL dialect; the SQL lives in {@link PairingRows}. */
final class JdbcPairing implements PairingBook {

    private final Database db;
    private final Clock clock;

    JdbcPairing(Database db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public Optional<Pairing> pending(String channel, String account, String sender, Instant now) {
        requireIds(channel, account, sender);
        long at = Objects.requireNonNull(now, "now").toEpochMilli();
        return db.read("pendingPairing", tx -> PairingRows.pending(tx, channel, account, sender, at));
    }

    @Override
    public Pairing create(String channel, String account, String sender, String code, Instant now, Instant expiresAt) {
        requireIds(channel, account, sender);
        String key = Pairing.normaliseCode(code);
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("a pairing code must not be blank");
        }
        if (!expiresAt.isAfter(now)) {
            throw new IllegalArgumentException("a pairing must expire after it is created");
        }
        Optional<Pairing> created = db.write(
                "createPairing",
                tx -> PairingRows.create(
                        tx, channel, account, sender, key, now.toEpochMilli(), expiresAt.toEpochMilli()));
        return created.orElseThrow(() -> new IllegalArgumentException("pairing code already in use"));
    }

    @Override
    public int pendingCount(String channel, String account, Instant now) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        long at = Objects.requireNonNull(now, "now").toEpochMilli();
        return db.read("pendingPairingCount", tx -> PairingRows.pendingCount(tx, channel, account, at));
    }

    @Override
    public List<Pairing> list(boolean includeExpired) {
        long now = clock.millis();
        return db.read("pairings", tx -> PairingRows.list(tx, includeExpired, now));
    }

    @Override
    public Optional<Pairing> approve(String code, Instant now) {
        String key = Pairing.normaliseCode(code);
        long at = Objects.requireNonNull(now, "now").toEpochMilli();
        return db.write("approvePairing", tx -> PairingRows.decide(tx, key, Pairing.Status.APPROVED, at));
    }

    @Override
    public Optional<Pairing> reject(String code) {
        String key = Pairing.normaliseCode(code);
        return db.write("rejectPairing", tx -> PairingRows.decide(tx, key, Pairing.Status.REJECTED, clock.millis()));
    }

    @Override
    public boolean isApproved(String channel, String account, String sender) {
        requireIds(channel, account, sender);
        return db.read("isApproved", tx -> PairingRows.isPaired(tx, channel, account, sender));
    }

    private static void requireIds(String channel, String account, String sender) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(sender, "sender");
    }
}

package dev.clawgate.core.internal.access;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.PairingBook;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

/**
 * Who may talk to the agent (SPEC IN-5), per channel account: decides for each inbound message whether it starts a
 * turn, is denied, is buffered as group history (SPEC IN-6), or earns its unknown sender a pairing code. Thread-safe.
 */
public final class AccessGate {

    /** How long a pairing code stays valid. */
    public static final Duration PAIRING_TTL = Duration.ofHours(1);
    /** At most this many codes wait for the owner per channel account. */
    public static final int MAX_PENDING_PER_ACCOUNT = 3;

    static final String WILDCARD = "*";
    private static final DateTimeFormatter UNTIL =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);
    // a clash in 32^8 codes is a freak event; this many in a row means something else is wrong
    private static final int CODE_ATTEMPTS = 5;

    private final PairingBook pairings;
    private final Clock clock;
    private final RandomGenerator random;
    // check-then-create of a code must not interleave, or the queue cap could be overrun
    private final ReentrantLock pairingLock = new ReentrantLock();

    public AccessGate(PairingBook pairings, Clock clock) {
        this(pairings, clock, new SecureRandom());
    }

    /** @param random where codes come from; tests pass a seeded one */
    public AccessGate(PairingBook pairings, Clock clock, RandomGenerator random) {
        this.pairings = Objects.requireNonNull(pairings, "pairings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * @param ownerChannel whether {@code m} came through an owner channel (terminal, web chat, API:
     *     {@link dev.clawgate.core.channel.Channel#ownerChannel()}), which IN-5 does not apply to
     */
    public Decision decide(InboundMessage m, boolean ownerChannel, ClawgateConfig config) {
        Objects.requireNonNull(m, "m");
        Objects.requireNonNull(config, "config");
        if (ownerChannel) {
            return new Decision.Admit();
        }
        AccessSettings access = config.channel(m.channel()).accessFor(m.account());
        return m.chatType() == ChatType.GROUP ? decideGroup(m, access) : decideDirect(m, access, config);
    }

    private Decision decideGroup(InboundMessage m, AccessSettings access) {
        switch (access.groupPolicy()) {
            case DISABLED -> {
                return new Decision.Deny("group messages are disabled (group_policy = disabled)");
            }
            case ALLOWLIST -> {
                if (!listed(access.allowedGroups(), m.channel(), m.replyTarget())) {
                    return new Decision.Deny("group not in allowed_groups");
                }
            }
            case OPEN -> {
                // every group passes; the mention rule below still applies
            }
        }
        if (access.requireMention() && !m.mentioned()) {
            return new Decision.Buffer("not mentioned (require_mention)");
        }
        return new Decision.Admit();
    }

    private Decision decideDirect(InboundMessage m, AccessSettings access, ClawgateConfig config) {
        if (config.gateway().isOwner(m.channel(), m.sender())) {
            return new Decision.Admit();
        }
        DmPolicy policy = access.dmPolicy();
        if (policy == DmPolicy.DISABLED) {
            return new Decision.Deny("direct messages are disabled (dm_policy = disabled)");
        }
        if (listed(access.allowedUsers(), m.channel(), m.sender())) {
            return new Decision.Admit();
        }
        if (policy == DmPolicy.OPEN) {
            // SPEC IN-5: open with a concrete list admits only the list
            return new Decision.Deny("sender not in allowed_users");
        }
        if (pairings.isApproved(m.channel(), m.account(), m.sender())) {
            return new Decision.Admit();
        }
        if (policy == DmPolicy.ALLOWLIST) {
            return new Decision.Deny("sender not in allowed_users and not paired");
        }
        return pair(m);
    }

    private Decision pair(InboundMessage m) {
        pairingLock.lock();
        try {
            Instant now = clock.instant();
            Optional<Pairing> pending = pairings.pending(m.channel(), m.account(), m.sender(), now);
            if (pending.isPresent()) {
                return pairDecision(pending.get());
            }
            if (pairings.pendingCount(m.channel(), m.account(), now) >= MAX_PENDING_PER_ACCOUNT) {
                return new Decision.Deny("pairing queue full");
            }
            return pairDecision(create(m, now));
        } finally {
            pairingLock.unlock();
        }
    }

    private Pairing create(InboundMessage m, Instant now) {
        IllegalArgumentException clash = null;
        for (int attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
            try {
                return pairings.create(
                        m.channel(),
                        m.account(),
                        m.sender(),
                        PairingCodes.generate(random),
                        now,
                        now.plus(PAIRING_TTL));
            } catch (IllegalArgumentException e) {
                clash = e;
            }
        }
        throw new IllegalStateException("no free pairing code after " + CODE_ATTEMPTS + " attempts", clash);
    }

    private static Decision pairDecision(Pairing p) {
        String until = UNTIL.format(p.expiresAt());
        return new Decision.Pair(
                p.code(),
                "I don't know you yet. Your pairing code is " + p.code() + " (valid until " + until
                        + "). Ask the owner to run: clawgate pairing approve " + p.code());
    }

    /** An entry matches the id exactly, as {@code channel:id}, or as {@code *}. */
    static boolean listed(List<String> entries, String channel, String id) {
        return entries.contains(WILDCARD) || entries.contains(id) || entries.contains(channel + ":" + id);
    }
}

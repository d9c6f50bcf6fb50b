package dev.clawgate.core.internal.access;

import static dev.clawgate.core.internal.access.AccessFixtures.config;
import static dev.clawgate.core.internal.access.AccessFixtures.dm;
import static dev.clawgate.core.internal.access.AccessFixtures.dms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.internal.access.AccessFixtures.TestClock;
import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.Pairing.Status;
import dev.clawgate.core.store.PairingBook;
import dev.clawgate.core.testing.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pairing-code flow of dm_policy = pairing (SPEC IN-5), against the in-memory store. */
class PairingFlowTest {

    private final TestClock clock = new TestClock(Instant.parse("2025-03-01T10:00:00Z"));
    private final InMemoryStore store = new InMemoryStore(clock);
    private final AccessGate gate = new AccessGate(store.pairing(), clock, new Random(11));
    private final ClawgateConfig pairing = config(dms(DmPolicy.PAIRING, "alice"));

    private Decision.Pair pair(String sender) {
        Decision d = gate.decide(dm(sender), false, pairing);
        assertThat(d).as("decision for " + sender).isInstanceOf(Decision.Pair.class);
        return (Decision.Pair) d;
    }

    @Test
    void anUnknownSenderGetsACodeAndTheCommandThatApprovesIt() {
        // SPEC IN-5: a one-time code sent to unknown senders, approved with `clawgate pairing approve CODE`
        Decision.Pair p = pair("stranger");

        assertThat(PairingCodes.isWellFormed(p.code())).as(p.code()).isTrue();
        assertThat(p.replyText())
                .contains(p.code(), "clawgate pairing approve " + p.code(), "valid until 2025-03-01 11:00 UTC");
        assertThat(store.pairing().list(false))
                .containsExactly(new Pairing(
                        p.code(),
                        "telegram",
                        "default",
                        "stranger",
                        Status.PENDING,
                        clock.instant(),
                        clock.instant().plus(Duration.ofHours(1))));
    }

    @Test
    void aSenderWhoWritesAgainGetsTheSameCode() {
        // SPEC IN-5: the pending code is reused, not replaced
        String first = pair("stranger").code();
        clock.advance(Duration.ofMinutes(59));

        assertThat(pair("stranger").code()).isEqualTo(first);
        assertThat(store.pairing().list(true)).hasSize(1);
    }

    @Test
    void aCodeExpiresAfterOneHourAndCannotBeApprovedThen() {
        // SPEC IN-5: codes expire after 1 h
        String first = pair("stranger").code();
        clock.advance(Duration.ofHours(1));

        String second = pair("stranger").code();

        assertThat(second).isNotEqualTo(first);
        assertThat(store.pairing().list(true))
                .extracting(Pairing::code, Pairing::status)
                .containsExactly(tuple(first, Status.EXPIRED), tuple(second, Status.PENDING));
        assertThat(store.pairing().approve(first, clock.instant())).isEmpty();
        assertThat(gate.decide(dm("stranger"), false, pairing)).isInstanceOf(Decision.Pair.class);
    }

    @Test
    void atMostThreeCodesWaitPerChannelAccount() {
        // SPEC IN-5: at most 3 pending per channel account
        String a = pair("s1").code();
        pair("s2");
        pair("s3");

        assertThat(gate.decide(dm("s4"), false, pairing)).isEqualTo(new Decision.Deny("pairing queue full"));
        assertThat(store.pairing().list(true)).extracting(Pairing::sender).containsExactly("s1", "s2", "s3");
        assertThat(pair("s1").code())
                .as("a sender already waiting still gets their code")
                .isEqualTo(a);
        assertThat(gate.decide(dm("telegram", "second-bot", "s4"), false, pairing))
                .as("another account of the channel has its own queue")
                .isInstanceOf(Decision.Pair.class);

        store.pairing().reject(a);
        assertThat(pair("s4").code()).as("a decided code frees its place").isNotEqualTo(a);
        clock.advance(Duration.ofHours(1));
        assertThat(pair("s5").code()).as("expired codes free their places").isNotNull();
    }

    @Test
    void anApprovedSenderIsAdmittedFromTheNextMessageOn() {
        // SPEC IN-5: pairing is allowlist plus the code flow; approval admits the sender
        String code = pair("stranger").code();
        pair("other");

        assertThat(store.pairing().approve(code, clock.instant())).isPresent();

        assertThat(gate.decide(dm("stranger"), false, pairing)).isEqualTo(new Decision.Admit());
        assertThat(gate.decide(dm("stranger"), false, config(dms(DmPolicy.ALLOWLIST, ""))))
                .as("the approval also holds under allowlist")
                .isEqualTo(new Decision.Admit());
        assertThat(gate.decide(dm("telegram", "second-bot", "stranger"), false, pairing))
                .as("an approval holds for its channel account only")
                .isInstanceOf(Decision.Pair.class);
        assertThat(gate.decide(dm("other"), false, pairing)).isInstanceOf(Decision.Pair.class);
    }

    @Test
    void sendersRacingForTheLastPlacesNeverOverrunTheQueue() throws Exception {
        // SPEC IN-5: at most 3 pending per channel account, also under concurrent first messages
        PairingBook book = store.pairing();
        CountDownLatch countersWaiting = new CountDownLatch(AccessGate.MAX_PENDING_PER_ACCOUNT + 1);
        // holds each count until one more sender than there are places has counted (or 300 ms pass):
        // without the gate's lock all four would act on a count taken before any of them created a code
        PairingBook widened = new PairingBook() {
            @Override
            public boolean isApproved(String channel, String account, String sender) {
                return book.isApproved(channel, account, sender);
            }

            @Override
            public Optional<Pairing> pending(String channel, String account, String sender, Instant now) {
                return book.pending(channel, account, sender, now);
            }

            @Override
            public int pendingCount(String channel, String account, Instant now) {
                int count = book.pendingCount(channel, account, now);
                countersWaiting.countDown();
                try {
                    countersWaiting.await(300, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                return count;
            }

            @Override
            public Pairing create(
                    String channel, String account, String sender, String code, Instant now, Instant expiresAt) {
                return book.create(channel, account, sender, code, now, expiresAt);
            }

            @Override
            public List<Pairing> list(boolean includeExpired) {
                return book.list(includeExpired);
            }

            @Override
            public Optional<Pairing> approve(String code, Instant now) {
                return book.approve(code, now);
            }

            @Override
            public Optional<Pairing> reject(String code) {
                return book.reject(code);
            }
        };
        AccessGate racingGate = new AccessGate(widened, clock, new Random(3));
        List<Future<Decision>> racing = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 12; i++) {
                String sender = "racer-" + i;
                racing.add(pool.submit(() -> racingGate.decide(dm(sender), false, pairing)));
            }
        }
        List<Decision> decisions = new ArrayList<>();
        for (Future<Decision> f : racing) {
            decisions.add(f.get());
        }

        assertThat(decisions).filteredOn(Decision.Pair.class::isInstance).hasSize(3);
        assertThat(decisions)
                .filteredOn(d -> d.equals(new Decision.Deny("pairing queue full")))
                .hasSize(9);
        assertThat(store.pairing().pendingCount("telegram", "default", clock.instant()))
                .isEqualTo(3);
    }

    @Test
    void aCodeThatIsAlreadyTakenIsRedrawn() {
        // SPEC IN-5: a code names one pairing
        String firstDraw = PairingCodes.generate(new Random(11));
        store.pairing()
                .create(
                        "telegram",
                        "old",
                        "someone",
                        firstDraw,
                        clock.instant(),
                        clock.instant().plusSeconds(60));

        String code = pair("stranger").code();

        assertThat(code).isNotEqualTo(firstDraw);
        assertThat(PairingCodes.isWellFormed(code)).isTrue();
    }

    @Test
    void aBookThatNeverYieldsAFreeCodeIsAnErrorNotALoop() {
        // SPEC IN-5: bad state gets a clear error
        PairingBook full = new PairingBook() {
            @Override
            public boolean isApproved(String channel, String account, String sender) {
                return false;
            }

            @Override
            public Optional<Pairing> pending(String channel, String account, String sender, Instant now) {
                return Optional.empty();
            }

            @Override
            public int pendingCount(String channel, String account, Instant now) {
                return 0;
            }

            @Override
            public Pairing create(
                    String channel, String account, String sender, String code, Instant now, Instant expiresAt) {
                throw new IllegalArgumentException("pairing code already in use");
            }

            @Override
            public List<Pairing> list(boolean includeExpired) {
                return List.of();
            }

            @Override
            public Optional<Pairing> approve(String code, Instant now) {
                return Optional.empty();
            }

            @Override
            public Optional<Pairing> reject(String code) {
                return Optional.empty();
            }
        };
        AccessGate stuck = new AccessGate(full, clock, new Random(1));

        assertThatThrownBy(() -> stuck.decide(dm("stranger"), false, pairing))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no free pairing code");
    }
}

package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.Pairing.Status;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The pairing half of the Store contract (SPEC IN-5); runs on every dialect. */
abstract class PairingContract extends StoreTestBase {

    static final Duration HOUR = Duration.ofHours(1);

    Pairing create(Store store, String channel, String account, String sender, String code) {
        Instant now = clock.instant();
        return store.pairing().create(channel, account, sender, code, now, now.plus(HOUR));
    }

    @Test
    void aNewCodeIsPendingUntilItsHourRunsOut() {
        // SPEC IN-5: codes expire after 1 h
        Store store = open();
        Instant start = clock.instant();
        Pairing p = create(store, "telegram", "default", "alice", "ABCD2345");

        assertThat(p)
                .isEqualTo(new Pairing(
                        "ABCD2345", "telegram", "default", "alice", Status.PENDING, start, start.plus(HOUR)));
        assertThat(rows("SELECT code, channel, account, sender, status, created_at, expires_at FROM pairings"))
                .containsExactly(List.of(
                        "ABCD2345",
                        "telegram",
                        "default",
                        "alice",
                        "pending",
                        start.toEpochMilli(),
                        start.plus(HOUR).toEpochMilli()));

        clock.advance(HOUR.minusMillis(1));
        assertThat(store.pairing().pending("telegram", "default", "alice", clock.instant()))
                .contains(p);
        assertThat(store.pairing().pendingCount("telegram", "default", clock.instant()))
                .isEqualTo(1);
        assertThat(store.pairing().list(false)).containsExactly(p);

        clock.advance(Duration.ofMillis(1));
        assertThat(store.pairing().pending("telegram", "default", "alice", clock.instant()))
                .isEmpty();
        assertThat(store.pairing().pendingCount("telegram", "default", clock.instant()))
                .isZero();
        assertThat(store.pairing().list(false)).isEmpty();
        assertThat(store.pairing().list(true))
                .extracting(Pairing::code, Pairing::status)
                .containsExactly(tuple("ABCD2345", Status.EXPIRED));
    }

    @Test
    void aSenderHoldsOnePendingCodeAtATime() {
        // SPEC IN-5: an unknown sender who writes again gets the same code
        Store store = open();
        Pairing first = create(store, "telegram", "default", "alice", "ABCD2345");
        clock.advance(Duration.ofMinutes(10));

        assertThat(create(store, "telegram", "default", "alice", "WXYZ6789")).isEqualTo(first);
        assertThat(rows("SELECT code FROM pairings")).containsExactly(List.of("ABCD2345"));

        clock.advance(HOUR);
        Pairing second = create(store, "telegram", "default", "alice", "WXYZ6789");
        assertThat(second.code()).isEqualTo("WXYZ6789");
        assertThat(second.status()).isEqualTo(Status.PENDING);
        assertThat(rows("SELECT code, status FROM pairings ORDER BY created_at"))
                .containsExactly(List.of("ABCD2345", "expired"), List.of("WXYZ6789", "pending"));
    }

    @Test
    void pendingCodesAreCountedPerChannelAccount() {
        // SPEC IN-5: at most 3 pending codes per channel account, so the count is per channel account
        Store store = open();
        create(store, "telegram", "default", "a", "AAAAAAAA");
        create(store, "telegram", "default", "b", "BBBBBBBB");
        create(store, "telegram", "default", "c", "CCCCCCCC");
        create(store, "telegram", "work", "a", "DDDDDDDD");
        create(store, "discord", "default", "a", "EEEEEEEE");
        Instant now = clock.instant();

        assertThat(store.pairing().pendingCount("telegram", "default", now)).isEqualTo(3);
        assertThat(store.pairing().pendingCount("telegram", "work", now)).isEqualTo(1);
        assertThat(store.pairing().pendingCount("discord", "default", now)).isEqualTo(1);
        assertThat(store.pairing().pendingCount("slack", "default", now)).isZero();
        assertThat(store.pairing().pending("telegram", "work", "b", now)).isEmpty();
    }

    @Test
    void approvalPairsTheSenderOnThatChannelAccountOnly() {
        // SPEC IN-5: the owner approves with `clawgate pairing approve CODE`; approved senders are admitted
        Store store = open();
        create(store, "telegram", "default", "alice", "ABCD2345");
        clock.advance(Duration.ofMinutes(5));
        Instant at = clock.instant();

        assertThat(store.pairing().approve("  abcd2345 ", at))
                .get()
                .extracting(Pairing::status, Pairing::sender)
                .containsExactly(Status.APPROVED, "alice");

        assertThat(store.pairing().isApproved("telegram", "default", "alice")).isTrue();
        assertThat(store.pairing().isApproved("telegram", "work", "alice")).isFalse();
        assertThat(store.pairing().isApproved("discord", "default", "alice")).isFalse();
        assertThat(store.pairing().isApproved("telegram", "default", "bob")).isFalse();
        assertThat(rows("SELECT channel, account, sender, code, approved_at FROM paired_senders"))
                .containsExactly(List.of("telegram", "default", "alice", "ABCD2345", at.toEpochMilli()));
        assertThat(rows("SELECT status, decided_at FROM pairings"))
                .containsExactly(List.of("approved", at.toEpochMilli()));
        assertThat(store.pairing().pendingCount("telegram", "default", at)).isZero();
        assertThat(store.pairing().list(false)).isEmpty();
        assertThat(store.pairing().list(true)).extracting(Pairing::status).containsExactly(Status.APPROVED);

        assertThat(store.pairing().approve("ABCD2345", at))
                .as("a code is used once")
                .isEmpty();
        assertThat(store.pairing().reject("ABCD2345"))
                .as("an approval is final")
                .isEmpty();
        assertThat(store.pairing().isApproved("telegram", "default", "alice")).isTrue();
    }

    @Test
    void expiredAndUnknownCodesCannotBeDecided() {
        // SPEC IN-5: a code is accepted only within its hour
        Store store = open();
        create(store, "telegram", "default", "alice", "ABCD2345");
        clock.advance(HOUR);

        assertThat(store.pairing().approve("ABCD2345", clock.instant())).isEmpty();
        assertThat(store.pairing().reject("ABCD2345")).isEmpty();
        assertThat(store.pairing().approve("NOPE2345", clock.instant())).isEmpty();
        assertThat(store.pairing().reject("")).isEmpty();
        assertThat(store.pairing().isApproved("telegram", "default", "alice")).isFalse();
        assertThat(rows("SELECT status, decided_at FROM pairings"))
                .containsExactly(java.util.Arrays.asList("pending", null));
        assertThat(count("SELECT COUNT(*) FROM paired_senders")).isZero();
    }

    @Test
    void rejectionLeavesTheSenderUnpairedAndFreesTheSlot() {
        // SPEC IN-5: `clawgate pairing reject CODE`
        Store store = open();
        create(store, "telegram", "default", "alice", "ABCD2345");

        assertThat(store.pairing().reject("ABCD2345"))
                .get()
                .extracting(Pairing::status)
                .isEqualTo(Status.REJECTED);

        assertThat(store.pairing().isApproved("telegram", "default", "alice")).isFalse();
        assertThat(store.pairing().pendingCount("telegram", "default", clock.instant()))
                .isZero();
        assertThat(value("SELECT status FROM pairings")).isEqualTo("rejected");
        assertThat(store.pairing().approve("ABCD2345", clock.instant())).isEmpty();
        assertThat(create(store, "telegram", "default", "alice", "WXYZ6789").code())
                .isEqualTo("WXYZ6789");
    }

    @Test
    void aCodeIsNeverHandedOutTwice() {
        // SPEC IN-5: a code names one pairing
        Store store = open();
        create(store, "telegram", "default", "alice", "ABCD2345");
        clock.advance(HOUR.multipliedBy(2));

        assertThatThrownBy(() -> create(store, "telegram", "default", "bob", "abcd2345"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already in use");
        assertThat(rows("SELECT sender FROM pairings")).containsExactly(List.of("alice"));
        assertThatThrownBy(() -> store.pairing()
                        .create("telegram", "default", "bob", "ZZZZZZZZ", clock.instant(), clock.instant()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void racingFirstMessagesOfOneSenderShareOneCode() throws Exception {
        // SPEC IN-5: one pending code per sender, even when two nodes or threads race
        Store store = open();
        List<Future<Pairing>> racing = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                String code = "RACE000" + (char) ('A' + i);
                racing.add(pool.submit(() -> create(store, "telegram", "default", "alice", code)));
            }
        }
        List<String> codes = new ArrayList<>();
        for (Future<Pairing> f : racing) {
            codes.add(f.get().code());
        }
        assertThat(codes).hasSize(8).containsOnly(codes.getFirst());
        assertThat(count("SELECT COUNT(*) FROM pairings")).isEqualTo(1);
    }

    @Test
    void pairingsAndApprovalsSurviveAReopen() {
        // SPEC IN-5, OP-1: pairing state is kept in the store
        Store first = open();
        create(first, "telegram", "default", "alice", "ABCD2345");
        create(first, "telegram", "default", "bob", "WXYZ6789");
        first.pairing().approve("ABCD2345", clock.instant());
        first.close();

        Store second = open();
        assertThat(second.pairing().isApproved("telegram", "default", "alice")).isTrue();
        assertThat(second.pairing().list(false)).extracting(Pairing::code).containsExactly("WXYZ6789");
        assertThat(second.pairing().list(true))
                .extracting(Pairing::code, Pairing::status)
                .containsExactly(tuple("ABCD2345", Status.APPROVED), tuple("WXYZ6789", Status.PENDING));
    }
}

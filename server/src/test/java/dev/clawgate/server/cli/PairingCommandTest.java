package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.Pairing.Status;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code clawgate pairing list|approve|reject} in-process, on the store of the config's data dir (SPEC IN-5, OP-4). */
class PairingCommandTest extends StoreCommandCase {
    private Instant now;

    @BeforeEach
    void fixTheClock() {
        now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    private void seed(String sender, String code, Duration age) {
        Instant created = now.minus(age);
        try (Store store = store()) {
            store.pairing().create("telegram", "default", sender, code, created, created.plus(Duration.ofHours(1)));
        }
    }

    @Test
    void listShowsPendingCodesAndAllShowsTheRest() {
        // SPEC IN-5: pending codes with channel, account, sender, code and expiry; --all includes the others
        seed("alice", "ABCD2345", Duration.ofMinutes(5));
        seed("bob", "WXYZ6789", Duration.ofHours(2));

        CliRunner.Result pending = CliRunner.run("pairing", "list", "--config", config.toString());
        CliRunner.Result all = CliRunner.run("pairing", "list", "--all", "--config", config.toString());

        assertThat(pending.exit()).isZero();
        assertThat(pending.out().lines()).hasSize(2);
        assertThat(pending.out().lines().skip(1).findFirst().orElseThrow())
                .contains("ABCD2345", "pending", "telegram", "default", "alice", " UTC");
        assertThat(pending.out()).doesNotContain("WXYZ6789");
        assertThat(all.exit()).isZero();
        assertThat(all.out().lines()).hasSize(3);
        assertThat(all.out()).contains("WXYZ6789", "expired", "bob");
    }

    @Test
    void listSaysSoWhenNothingIsPending() {
        // SPEC IN-5, OP-4
        CliRunner.Result r = CliRunner.run("pairing", "list", "--config", config.toString());

        assertThat(r.exit()).isZero();
        assertThat(r.out().strip()).isEqualTo("No pending pairing codes.");
    }

    @Test
    void approveMarksTheCodeApprovedAndPairsTheSender() {
        // SPEC IN-5: the owner approves with `clawgate pairing approve CODE`
        seed("alice", "ABCD2345", Duration.ofMinutes(5));
        seed("bob", "WXYZ6789", Duration.ofMinutes(5));

        CliRunner.Result r = CliRunner.run("pairing", "approve", "abcd2345", "--config", config.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("ABCD2345", "telegram:alice");
        try (Store store = store()) {
            assertThat(store.pairing().isApproved("telegram", "default", "alice"))
                    .isTrue();
            assertThat(store.pairing().isApproved("telegram", "default", "bob")).isFalse();
            assertThat(store.pairing().list(true))
                    .extracting(Pairing::code, Pairing::status)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple("ABCD2345", Status.APPROVED),
                            org.assertj.core.groups.Tuple.tuple("WXYZ6789", Status.PENDING));
        }
    }

    @Test
    void rejectMarksTheCodeRejectedAndPairsNobody() {
        // SPEC IN-5: `clawgate pairing reject CODE`
        seed("alice", "ABCD2345", Duration.ofMinutes(5));

        CliRunner.Result r = CliRunner.run("pairing", "reject", "ABCD2345", "--config", config.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("Rejected ABCD2345");
        try (Store store = store()) {
            assertThat(store.pairing().isApproved("telegram", "default", "alice"))
                    .isFalse();
            assertThat(store.pairing().list(true)).extracting(Pairing::status).containsExactly(Status.REJECTED);
        }
    }

    @Test
    void anUnknownExpiredOrDecidedCodeIsExitTwoWithOneLine() {
        // SPEC IN-5, OP-4: exit 2 with one line when the code is unknown or expired
        seed("alice", "ABCD2345", Duration.ofMinutes(61));
        seed("bob", "WXYZ6789", Duration.ofMinutes(5));
        assertThat(CliRunner.run("pairing", "reject", "WXYZ6789", "--config", config.toString())
                        .exit())
                .isZero();

        for (String[] args : new String[][] {
            {"pairing", "approve", "ABCD2345"}, {"pairing", "reject", "ABCD2345"},
            {"pairing", "approve", "NOPE2345"}, {"pairing", "approve", "WXYZ6789"}
        }) {
            String[] withConfig = java.util.stream.Stream.concat(
                            java.util.Arrays.stream(args), java.util.stream.Stream.of("--config", config.toString()))
                    .toArray(String[]::new);
            CliRunner.Result r = CliRunner.run(withConfig);

            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(Main.USAGE);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).contains("no pending pairing code " + args[2]).doesNotContain("\tat ");
            assertThat(r.out()).isEmpty();
        }
        try (Store store = store()) {
            assertThat(store.pairing().isApproved("telegram", "default", "alice"))
                    .isFalse();
            assertThat(store.pairing().list(true))
                    .extracting(Pairing::status)
                    .containsExactly(Status.EXPIRED, Status.REJECTED);
        }
    }

    @Test
    void pairingWithoutASubcommandOrCodeIsAUsageError() {
        // SPEC OP-4: usage errors are exit 2
        assertThat(CliRunner.run("pairing", "--config", config.toString()).exit())
                .isEqualTo(Main.USAGE);
        assertThat(CliRunner.run("pairing").exit()).isEqualTo(Main.USAGE);
        assertThat(CliRunner.run("pairing", "approve", "--config", config.toString())
                        .exit())
                .isEqualTo(Main.USAGE);
    }
}

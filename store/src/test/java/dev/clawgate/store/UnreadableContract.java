package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.store.InboxBook;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.UnreadableInbound;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The unreadable-update part of the Store contract (SPEC IN-4, CH-0: poison messages kept); runs on every dialect. */
abstract class UnreadableContract extends StoreTestBase {

    @Test
    void anUnreadableUpdateIsKeptWithItsReasonAndItsRawPayloadCutToTheBound() {
        // SPEC IN-4: recorded as failed, raw update kept (bounded), visible to an operator
        Store store = open();
        String huge = "{\"update_id\":7,\"message\":\"" + "x".repeat(UnreadableInbound.MAX_RAW_CHARS * 2) + "\"}";
        UnreadableInbound poison = UnreadableInbound.of("telegram", "default", "7", "field 'date' out of range", huge);
        assertThat(store.inbox().recordUnreadable(poison)).isTrue();

        List<UnreadableInbound> kept = store.inbox().unreadable(10);
        assertThat(kept).hasSize(1);
        UnreadableInbound u = kept.getFirst();
        assertThat(u.id()).isPositive();
        assertThat(u.channel()).isEqualTo("telegram");
        assertThat(u.platformRef()).isEqualTo("7");
        assertThat(u.reason()).isEqualTo("field 'date' out of range");
        assertThat(u.raw()).isEqualTo(huge.substring(0, UnreadableInbound.MAX_RAW_CHARS));
        assertThat(u.rawLength()).isEqualTo(huge.length());
        assertThat(u.rawCut()).isTrue();
        assertThat(u.recordedAt()).isEqualTo(clock.instant());
    }

    @Test
    void theSameUpdateDeliveredAgainIsOneRecord() {
        // SPEC IN-4, IN-1: a redelivery before the ack adds nothing
        Store store = open();
        UnreadableInbound u = UnreadableInbound.of("webhook", "default", "m-1", "field 'text' is missing", "{}");
        assertThat(store.inbox().recordUnreadable(u)).isTrue();
        assertThat(store.inbox().recordUnreadable(u)).isFalse();
        assertThat(store.inbox().recordUnreadable(UnreadableInbound.of("webhook", "other", "m-1", "r", "{}")))
                .isTrue();
        assertThat(store.inbox().unreadable(10))
                .extracting(UnreadableInbound::account)
                .containsExactly("other", "default");
    }

    @Test
    void aPayloadWithNulCharactersIsKept() {
        // SPEC IN-4: whatever bytes came, the record commits (PostgreSQL text cannot hold NUL)
        Store store = open();
        assertThat(store.inbox().recordUnreadable(UnreadableInbound.of("webhook", "default", "n\0ul", "bad", "a\0b")))
                .isTrue();
        assertThat(store.inbox().unreadable(1).getFirst().raw()).isEqualTo("a\uFFFDb");
    }

    @Test
    void onlyTheNewestAreKeptSoAFloodCannotGrowTheStore() {
        // SPEC OP-7: bounded
        Store store = open();
        int n = InboxBook.UNREADABLE_KEPT + 25;
        for (int i = 0; i < n; i++) {
            store.inbox()
                    .recordUnreadable(UnreadableInbound.of("telegram", "default", Integer.toString(i), "bad", "{}"));
            clock.advance(Duration.ofMillis(1));
        }
        List<UnreadableInbound> all = store.inbox().unreadable(n);
        assertThat(all).hasSize(InboxBook.UNREADABLE_KEPT);
        assertThat(all.getFirst().platformRef()).isEqualTo(Integer.toString(n - 1));
        assertThat(all.getLast().platformRef()).isEqualTo(Integer.toString(n - InboxBook.UNREADABLE_KEPT));
    }
}

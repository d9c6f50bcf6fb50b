package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.store.internal.Migrations;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Restarts, concurrency, text fidelity and schema versions: the Store contract's durable side. */
abstract class DurabilityContract extends StoreTestBase {

    /** Text that has broken stores before: quotes, SQL, escapes, emoji, CJK, right-to-left, combining marks. */
    static final List<String> NASTY = List.of(
            "'; DROP TABLE transcript; --",
            "\"double\" and 'single' quotes",
            "back\\slash \\' \\\" %_ wildcards",
            "emoji 😀👍🏽👨‍👩‍👧 flags 🇯🇵",
            "中文 日本語 한국어",
            "עברית العربية",
            "e\u0301 combining",
            "tab\tnew\nline\r\n",
            "{\"json\": [1, 2]}",
            "$1 $$ ? :name @p",
            "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 outside the BMP",
            "   leading and trailing   ");

    @Test
    void everythingSurvivesClosingAndReopening() {
        // SPEC HI-2: sessions and transcripts survive restarts; SPEC IN-4: so does the inbox
        Store first = open();
        long turn = record(first, "m1");
        first.inbox().mark(turn, InboxState.DISPATCHED, null);
        first.transcripts().appendUserMessage(ALICE, turn, "question");
        first.transcripts().completeTurn(ALICE, turn, "answer", InboxState.DONE);
        long pending = record(first, "m2");
        first.transcripts().putSetting(ALICE, "model", "big");
        first.close();

        Store second = open();

        assertThat(second.transcripts().load(ALICE, 50))
                .extracting(TranscriptEntry::content)
                .containsExactly("question", "answer");
        assertThat(second.transcripts().setting(ALICE, "model")).contains("big");
        assertThat(second.inbox().find(turn)).get().extracting(r -> r.state()).isEqualTo(InboxState.DONE);
        assertThat(second.inbox().unfinished()).extracting(r -> r.id()).containsExactly(pending);
        assertThat(second.transcripts().sessions())
                .extracting(SessionSummary::key)
                .containsExactly(ALICE);
        assertThat(count("SELECT COUNT(*) FROM schema_version")).isEqualTo(Migrations.SCHEMA.size());
    }

    @Test
    void concurrentWritersFromEightVirtualThreadsLoseNothing() throws Exception {
        // SPEC IN-4: every recorded message is committed; concurrent channels lose none
        Store store = open();
        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 125; i++) {
                        String id = writer + "-" + i;
                        SessionKey session =
                                new SessionKey("api", "default", ChatType.DIRECT, "local", null, "u" + writer);
                        long inboxId = store.inbox()
                                .record(message(id, "text " + id), session, keyOf(id), TTL)
                                .orElseThrow()
                                .id();
                        store.inbox().mark(inboxId, InboxState.DISPATCHED, null);
                        ids.add(inboxId);
                    }
                    return null;
                }));
            }
            for (Future<?> f : writers) {
                f.get();
            }
        }

        assertThat(ids).hasSize(1_000).doesNotHaveDuplicates();
        assertThat(count("SELECT COUNT(*) FROM inbox WHERE state = 'dispatched' AND attempts = 1"))
                .isEqualTo(1_000);
        assertThat(count("SELECT COUNT(DISTINCT dedupe_key) FROM inbox")).isEqualTo(1_000);
        assertThat(count("SELECT COUNT(*) FROM dedupe")).isEqualTo(1_000);
        assertThat(count("SELECT COUNT(*) FROM sessions")).isEqualTo(8);
    }

    @Test
    void twoNodesOnOneDatabaseNeverBothAcceptAKey() throws Exception {
        // SPEC IN-1: in cluster mode the store is shared, so two nodes never both run one message
        Store nodeA = open();
        Store nodeB = open();
        AtomicInteger accepted = new AtomicInteger();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> tasks = new ArrayList<>();
            for (Store node : List.of(nodeA, nodeB)) {
                for (int t = 0; t < 3; t++) {
                    tasks.add(pool.submit(() -> {
                        for (int i = 0; i < 100; i++) {
                            String id = "shared-" + i;
                            if (node.inbox()
                                    .record(message(id, "x"), ALICE, keyOf(id), TTL)
                                    .isPresent()) {
                                accepted.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> f : tasks) {
                f.get();
            }
        }

        assertThat(accepted.get()).isEqualTo(100);
        assertThat(count("SELECT COUNT(*) FROM inbox")).isEqualTo(100);
    }

    @Test
    void nodesOpeningAFreshDatabaseTogetherMigrateItOnce() throws Exception {
        // SPEC OP-1, OP-2: migrations run at start, also when several nodes start at once
        List<Future<Store>> starting = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 3; i++) {
                starting.add(pool.submit(this::open));
            }
            for (Future<Store> f : starting) {
                assertThat(f.get().healthy()).isTrue();
            }
        }
        assertThat(rows("SELECT version, description FROM schema_version ORDER BY version"))
                .containsExactlyElementsOf(Migrations.SCHEMA.stream()
                        .map(m -> List.<Object>of((long) m.version(), m.description()))
                        .toList());
        assertThat(Migrations.SCHEMA.subList(0, 7))
                .extracting(Migrations.Migration::description)
                .containsExactly(
                        "init", "pairing", "buffered_index", "outbox", "outbox_retries", "memory", "outbox_reply_to");
    }

    @Test
    void anyUnicodeAndSqlTextRoundTrips() {
        // SPEC HI-1, HI-2, MD-1: keys, transcripts, settings and payloads keep text exactly
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<String> texts = new ArrayList<>(NASTY);
        for (int i = 0; i < 40; i++) {
            texts.add(randomText(random));
        }
        Store store = open();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            SessionKey key = new SessionKey("ch " + text, text, ChatType.GROUP, text, text, text);
            InboundMessage m = new InboundMessage(
                    text,
                    "ch " + text,
                    text,
                    text,
                    text,
                    text,
                    text,
                    text,
                    ChatType.GROUP,
                    false,
                    Instant.EPOCH,
                    text,
                    List.of(),
                    text);
            long inboxId = store.inbox()
                    .record(m, key, "key " + text, TTL)
                    .orElseThrow()
                    .id();
            store.transcripts().appendUserMessage(key, inboxId, text);
            store.transcripts().putSetting(key, text, text);

            String why = "text #" + i + " with seed " + seed + ": " + text;
            assertThat(store.inbox().find(inboxId).orElseThrow().message())
                    .as(why)
                    .isEqualTo(m);
            assertThat(store.inbox().find(inboxId).orElseThrow().session())
                    .as(why)
                    .isEqualTo(key);
            assertThat(store.transcripts().load(key, 5))
                    .as(why)
                    .extracting(TranscriptEntry::content)
                    .containsExactly(text);
            assertThat(store.transcripts().setting(key, text)).as(why).contains(text);
            assertThat(store.inbox().record(m, key, "key " + text, TTL)).as(why).isEmpty();
            assertThat(value("SELECT content FROM transcript WHERE inbox_id = ?", inboxId))
                    .as(why)
                    .isEqualTo(text);
        }
        assertThat(store.transcripts().sessions()).hasSize(texts.size());
    }

    @Test
    void newerSchemaIsRefusedWithAClearMessage() throws Exception {
        // SPEC OP-1: schema migrations are versioned; a database from a newer Clawgate is not touched
        open().close();
        try (Connection c = backend().raw();
                Statement st = c.createStatement()) {
            st.execute("INSERT INTO schema_version (version, description, applied_at) VALUES ("
                    + (Migrations.SCHEMA.size() + 1) + ", 'future', 0)");
        }

        assertThatThrownBy(this::open)
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("version " + (Migrations.SCHEMA.size() + 1))
                .hasMessageContaining("up to " + Migrations.SCHEMA.size())
                .hasMessageContaining("newer Clawgate");
        assertThat(count("SELECT COUNT(*) FROM schema_version")).isEqualTo(Migrations.SCHEMA.size() + 1);
    }

    @Test
    void healthyUntilClosedThenEveryCallFailsClearly() {
        // SPEC OP-3: readiness asks the store; a closed store is not ready
        Store store = open();
        assertThat(store.healthy()).isTrue();

        store.close();
        store.close();

        assertThat(store.healthy()).isFalse();
        assertThatThrownBy(() -> store.transcripts().load(ALICE, 5))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("loadTranscript")
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> record(store, "m1"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("recordInbound");
    }

    /** Up to 30 code points from all of Unicode except NUL and lone surrogates, biased to the BMP. */
    private static String randomText(Random random) {
        StringBuilder sb = new StringBuilder();
        int length = 1 + random.nextInt(30);
        while (sb.codePointCount(0, sb.length()) < length) {
            int cp = random.nextInt(4) == 0 ? 0x10000 + random.nextInt(0x10FFFF - 0x10000) : 1 + random.nextInt(0xFFFF);
            if (cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE) {
                sb.appendCodePoint(cp);
            }
        }
        return sb.toString();
    }
}

package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: the store's round trips on a turn's path. Each test counts the transactions a step runs, so a step that
 * reads or writes more than it needs shows here.
 */
class TurnRoundTripsTest {
    static final MemoryScope ALICE = MemoryScope.sender("telegram", "alice");
    static final SessionKey SESSION = new SessionKey("telegram", "default", ChatType.DIRECT, "chat-1", null, "alice");

    @TempDir
    Path dir;

    private CountingDatabase db;

    @BeforeEach
    void open() {
        SqliteDatabase sqlite = SqliteDatabase.open(dir.resolve("clawgate.db"));
        Migrations.schema().apply(sqlite);
        db = new CountingDatabase(sqlite);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void trimmingAScopeUnderItsCapTakesNoWrite() {
        // SPEC ME-7: the cap holds; auto-save trims after every save, and under the cap that is one read, no write
        JdbcMemory memory = new JdbcMemory(db, Clock.systemUTC());
        for (int i = 0; i < 3; i++) memory.store(ALICE, "k" + i, "remark " + i, MemoryEntry.CONVERSATION);
        db.drain();

        assertThat(memory.trim(ALICE, 3)).isZero();
        assertThat(db.drain()).containsExactly("read memory count");

        assertThat(memory.trim(ALICE, 2)).isEqualTo(1);
        assertThat(db.drain()).containsExactly("read memory count", "write memory trim");
        assertThat(memory.list(ALICE, 10)).extracting(MemoryEntry::key).containsExactlyInAnyOrder("k1", "k2");
    }

    @Test
    void aRecordsStateIsOneNarrowRead() {
        // SPEC IN-4, RP-5: the receipt after a reply reads the committed state, not the whole record and its message
        JdbcStore store = new JdbcStore(db, Clock.systemUTC());
        InboundMessage m = InboundMessage.direct("telegram", "m1", "alice", "hi");
        long id = store.inbox()
                .record(m, SESSION, null, Duration.ZERO)
                .orElseThrow()
                .id();
        store.transcripts().completeTurn(SESSION, id, "hello", InboxState.DONE);
        db.drain();

        assertThat(store.inbox().state(id)).contains(InboxState.DONE);
        assertThat(db.drain()).containsExactly("read inboxState");
    }

    @Test
    void aMessageWithNoSearchableTermsAndNoVectorHalfReadsNothing() {
        // SPEC ME-3, ME-5: nothing to search by keyword, and a query too short to embed: no recall query at all
        JdbcMemory memory = new JdbcMemory(db, Clock.systemUTC());
        memory.store(ALICE, "k", "the harbour at dawn", MemoryEntry.CONVERSATION);
        AtomicInteger embedded = new AtomicInteger();
        Embedder embedder = new Embedder() {
            @Override
            public String modelId() {
                return "test@1";
            }

            @Override
            public int dimensions() {
                return 2;
            }

            @Override
            public float[] embed(String text) {
                embedded.incrementAndGet();
                return new float[] {1, 0};
            }
        };
        MemorySettings cfg = MemorySettings.defaults().withEmbedding(new EmbeddingSettings("local", null, 0.5, 25));
        HybridMemory hybrid = new HybridMemory(memory, embedder, () -> cfg);
        db.drain();

        assertThat(memory.recall("is it the", List.of(ALICE), 5)).isEmpty();
        assertThat(hybrid.recall("ok, it is", List.of(ALICE), 5)).isEmpty();
        assertThat(db.drain()).isEmpty();
        assertThat(embedded).hasValue(0);
        // a searchable word is one recall read
        assertThat(memory.recall("harbour", List.of(ALICE), 5)).hasSize(1);
        assertThat(db.drain()).containsExactly("read memory recall");
    }

    @Test
    void optimizeMergesInBoundedStepsEachItsOwnWriteSoTurnsWriteBetweenThem() {
        // SPEC ME-5, issue 27: the hourly merge of the FTS5 index never holds the writer for the whole index
        JdbcMemory memory = new JdbcMemory(db, Clock.systemUTC());
        for (int i = 0; i < 40; i++)
            memory.store(ALICE, "k" + i, "remark " + i + " about kites", MemoryEntry.CONVERSATION);
        db.drain();

        memory.optimize();

        List<String> steps = db.drain();
        assertThat(steps).hasSizeGreaterThanOrEqualTo(2).allMatch("write memory optimize"::equals);
        memory.optimize(); // nothing left: one step that finds so
        assertThat(db.drain()).containsExactly("write memory optimize");
        long segments = db.read(
                "segments",
                tx -> tx.first("SELECT COUNT(DISTINCT segid) FROM memory_fts_idx", rs -> rs.getLong(1))
                        .orElseThrow());
        assertThat(segments).isEqualTo(1L);
    }
}

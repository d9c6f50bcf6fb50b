package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cluster's coordination on a real PostgreSQL, two nodes in one JVM (SPEC OP-2, DI-1, IN-4, OUT-7, CH-0). */
class PostgresClusterTest {
    private static final Duration TTL = Duration.ofMillis(2500);
    private static final SessionKey ALICE = new SessionKey("telegram", "default", ChatType.DIRECT, "chat-1", null, "a");
    private static PostgresSchema schema;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void createSchema() {
        schema = PostgresSchema.create("cluster");
    }

    @AfterAll
    static void dropSchema() {
        if (schema != null) schema.drop();
    }

    @BeforeEach
    void reset() {
        schema.reset();
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) c.close();
    }

    private Store store(String node) {
        Store s = Stores.openPostgres(schema.url(), 3, Duration.ofSeconds(5), node);
        opened.add(s);
        return s;
    }

    private ClusterBook node(String node) {
        store(node);
        ClusterBook b = Stores.openCluster(schema.url(), node, TTL, Duration.ofSeconds(5));
        opened.add(b);
        assertThat(b.join("127.0.0.1:0")).isEmpty();
        return b;
    }

    private static InboxRecord record(Store store, String id) {
        InboundMessage m = new InboundMessage(
                id,
                "telegram",
                "default",
                "a",
                "A",
                "chat-1",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "hello " + id,
                List.of(),
                "{}");
        return store.inbox().record(m, ALICE, "k-" + id, Duration.ofMinutes(20)).orElseThrow();
    }

    @Test
    void aSessionRunsOnTheNodeThatHoldsItsLeaseAndOthersHandTheirRecordsThere() throws Exception {
        // SPEC OP-2, DI-1: one run per session across the cluster; the other node's message is handed over
        ClusterBook a = node("node-a");
        ClusterBook b = node("node-b");
        Store storeB = store("node-b-store");
        assertThat(a.heartbeat("standby")).isTrue();
        InboxRecord first = record(storeB, "1");
        assertThat(a.heartbeat("standby")).isTrue();
        assertThat(a.claimSession(first).run()).extracting(InboxRecord::id).containsExactly(first.id());
        InboxRecord second = record(storeB, "2");
        assertThat(a.heartbeat("standby")).isTrue();
        ClusterBook.SessionClaim atB = b.claimSession(second);
        assertThat(atB.owner()).isEqualTo("node-a");
        assertThat(atB.run()).isEmpty();
        b.handOff(second.id(), atB.owner());
        assertThat(a.awaitWakeUp(Duration.ofSeconds(5))).isTrue();
        assertThat(a.takeHandoffs()).extracting(InboxRecord::id).containsExactly(second.id());
        assertThat(a.takeHandoffs()).isEmpty();
        assertThat(a.held()).containsEntry("sessions", 1L);
    }

    @Test
    void aDeadNodesSessionsAreTakenOverAndItsUnfinishedRecordsRunAgainOnce() throws Exception {
        // SPEC OP-2, IN-4: a node whose heartbeat lapses is dead; its sessions and unfinished records move
        ClusterBook a = node("node-a");
        ClusterBook b = node("node-b");
        Store storeA = store("node-a-2");
        InboxRecord r = record(storeA, "1");
        a.heartbeat("standby");
        assertThat(a.claimSession(r).owner()).isEqualTo("node-a");
        storeA.inbox().mark(r.id(), InboxState.DISPATCHED, null);
        Thread.sleep(TTL.toMillis() + 200);
        assertThat(b.heartbeat("standby")).isTrue();
        assertThat(b.sweep()).containsExactly("node-a");
        assertThat(a.heartbeat("standby")).as("a dead node stays dead: fenced").isFalse();
        assertThat(b.takeOverSessions(10)).extracting(InboxRecord::id).containsExactly(r.id());
        assertThat(b.takeOverSessions(10)).isEmpty();
        InboxRecord next = record(storeA, "2");
        b.heartbeat("standby");
        assertThat(a.claimSession(next).owner()).isEqualTo("node-b");
    }

    @Test
    void aRecordWhoseNodeDiedBeforeClaimingItsSessionIsRunAgainByAnother() throws Exception {
        // SPEC OP-2, IN-4: committed, then the node died before the session claim; a redelivery is a duplicate
        ClusterBook b = node("node-b");
        Store storeA = store("node-a");
        InboxRecord r = record(storeA, "1");
        assertThat(b.takeOverSessions(10))
                .as("younger than the lease: its node may still claim it")
                .isEmpty();
        Thread.sleep(TTL.toMillis() + 200);
        b.heartbeat("standby");
        assertThat(b.takeOverSessions(10)).extracting(InboxRecord::id).containsExactly(r.id());
        assertThat(b.takeOverSessions(10)).isEmpty();
    }

    @Test
    void aRecordWhoseNodeDiedBeforeHandingItOnGoesToTheLiveNodeRunningItsSession() throws Exception {
        // SPEC OP-2, IN-4, DI-1: node-c took a message of node-a's session and was killed before the hand-off;
        // the sweep hands it to node-a once, and node-c's late hand-off after its pause is refused
        ClusterBook a = node("node-a");
        ClusterBook b = node("node-b");
        ClusterBook c = node("node-c");
        Store storeA = store("node-a");
        Store storeC = store("node-c");
        InboxRecord first = record(storeA, "1");
        assertThat(a.claimSession(first).owner()).isEqualTo("node-a");
        InboxRecord cut = record(storeC, "2");
        assertThat(c.claimSession(cut).owner()).isEqualTo("node-a");
        // node-c dies here, before c.handOff(cut): the others heartbeat on past its lease
        for (int i = 0; i < 3; i++) {
            Thread.sleep(TTL.toMillis() / 2 + 100);
            assertThat(a.heartbeat("standby")).isTrue();
            assertThat(b.heartbeat("standby")).isTrue();
        }
        assertThat(b.sweep()).containsExactly("node-c");
        assertThat(b.sweep()).isEmpty();
        assertThat(a.awaitWakeUp(Duration.ofSeconds(5))).isTrue();
        assertThat(a.takeHandoffs()).extracting(InboxRecord::id).containsExactly(cut.id());
        c.handOff(cut.id(), "node-a");
        assertThat(a.takeHandoffs()).as("the fenced node's late hand-off").isEmpty();
        assertThat(b.takeOverSessions(10))
                .as("node-a is alive: its session stays")
                .isEmpty();
    }

    @Test
    void aSendCutByItsNodesDeathIsUnknownAfterSendAndTheLateOutcomeIsRefused() throws Exception {
        // SPEC OUT-7, OUT-12: never resent blindly; the dead node's late write is fenced
        ClusterBook a = node("node-a");
        ClusterBook b = node("node-b");
        Store storeA = store("node-a");
        InboxRecord r = record(storeA, "1");
        a.heartbeat("standby");
        OutboxEntry e = storeA.outbox()
                .completeTurnWithReply(
                        ALICE,
                        r.id(),
                        "hi",
                        InboxState.DONE,
                        new OutboundDraft("telegram", "default", "chat-1", null, "1", "hi", OutboundMessage.Kind.FINAL))
                .orElseThrow();
        assertThat(storeA.outbox().claim(e.id())).isTrue();
        Thread.sleep(TTL.toMillis() + 200);
        b.heartbeat("standby");
        b.sweep();
        assertThat(storeA.outbox().entry(e.id()).orElseThrow().state()).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
        assertThatThrownBy(() -> storeA.outbox().update(e.id(), OutboxUpdate.of(e, OutboxState.SENT, null)))
                .isInstanceOf(StoreException.class);
        assertThat(storeA.outbox().entry(e.id()).orElseThrow().state()).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
        assertThat(a.heartbeat("x")).isFalse();
    }

    @Test
    void oneListenerPerChannelIsElectedAndADeposedOneIsFenced() throws Exception {
        // SPEC OP-2, CH-0: one listener at a time; a takeover grows the fence, the old one is refused
        ClusterBook a = node("node-a");
        ClusterBook b = node("node-b");
        a.heartbeat("standby");
        long fenceA = a.acquireListener("telegram").orElseThrow();
        assertThat(b.acquireListener("telegram")).isEmpty();
        assertThat(a.holdsListener("telegram", fenceA)).isTrue();
        Thread.sleep(TTL.toMillis() + 200);
        assertThat(a.holdsListener("telegram", fenceA))
                .as("lapsed: refused even before a takeover")
                .isFalse();
        b.heartbeat("standby");
        long fenceB = b.acquireListener("telegram").orElseThrow();
        assertThat(fenceB).isGreaterThan(fenceA);
        assertThat(b.holdsListener("telegram", fenceB)).isTrue();
        assertThat(a.nodes()).extracting(ClusterBook.Node::nodeId).contains("node-a", "node-b");
    }

    @Test
    void aConfigAnnouncementBumpsTheVersionKeepsItsDigestAndWakesEveryNode() throws Exception {
        // SPEC OP-2, RT-3: a reload on one node is announced to all; one that missed the NOTIFY reads the version
        ClusterBook a = node("node-a");
        ClusterBook b = node("node-b");
        assertThat(b.configVersion()).isEqualTo(new ClusterBook.ConfigVersion(0, "", ""));
        assertThat(a.announceConfig("agent=0011;providers=2233")).isEqualTo(1);
        assertThat(b.awaitWakeUp(Duration.ofSeconds(5))).isTrue();
        assertThat(a.awaitWakeUp(Duration.ofSeconds(5))).isTrue();
        assertThat(b.announceConfig("agent=0011;providers=4455")).isEqualTo(2);
        assertThat(a.configVersion())
                .isEqualTo(new ClusterBook.ConfigVersion(2, "agent=0011;providers=4455", "node-b"));
    }
}

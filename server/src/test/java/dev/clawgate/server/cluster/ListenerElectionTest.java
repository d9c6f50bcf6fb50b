package dev.clawgate.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.store.Stores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The election of one listener per account on a real PostgreSQL (SPEC OP-2, CH-0): two nodes, each its own book,
 * supervisor and channel instance, as two gateways would be. Skipped without PostgreSQL unless CLAWGATE_REQUIRE_PG is
 * set.
 */
class ListenerElectionTest {
    private static final Duration TTL = Duration.ofMillis(2500);

    /**
     * Which nodes run each account's listener now, over both nodes: never two at once, but for a paused node's, which
     * runs on until its next round, fenced.
     */
    private final Map<String, Set<String>> listening = new ConcurrentHashMap<>();

    private final Set<String> paused = ConcurrentHashMap.newKeySet();

    private MigratedPostgresSchema pg;
    private String url;

    @BeforeEach
    void schema() {
        pg = new MigratedPostgresSchema("elect");
        url = pg.url();
    }

    @AfterEach
    void drop() throws Exception {
        if (pg != null) pg.close();
    }

    /** One gateway of the cluster: its book, election, supervisor and sink; {@code recorded} is its inbox. */
    private final class Node {
        final String name;
        final ClusterBook book;
        final ListenerElection election;
        final ChannelSupervisor supervisor;
        final FencedSink sink;
        final List<InboundMessage> recorded = new ArrayList<>();

        Node(String name, Set<String> cannotStart) {
            this.name = name;
            this.book = Stores.openCluster(url, name, TTL, Duration.ofSeconds(5));
            pg.opened(book);
            book.join("127.0.0.1:0");
            Channel channel = new Bots(name, cannotStart);
            this.election = new ListenerElection(book, ListenerElection.Listener.of(List.of(channel)));
            InboundSink inbox = m -> {
                recorded.add(m);
                return InboundSink.Acceptance.recorded(recorded.size());
            };
            this.sink = new FencedSink(inbox, election, book, () -> true);
            this.supervisor = new ChannelSupervisor(List.of(channel), sink);
            election.attach(supervisor);
        }

        /** One heartbeat as the node runs it: alive, sweep the dead, elect. */
        void beat() {
            assertThat(book.heartbeat("standby")).isTrue();
            book.sweep();
            election.round();
            for (Set<String> nodes : listening.values()) {
                assertThat(nodes.stream().filter(n -> !paused.contains(n)))
                        .as("listeners of one account")
                        .hasSizeLessThan(2);
            }
        }

        /** What its listener of {@code account} hands on. */
        void receive(String account, String id) {
            sink.accept(InboundMessage.builder()
                    .channel("telegram")
                    .account(account)
                    .id(id)
                    .sender("u1")
                    .replyTarget("u1")
                    .text("hi")
                    .build());
        }
    }

    /** A channel with two pull accounts, a and b, as Telegram with two polling bots declares them. */
    private final class Bots implements Channel {
        private final String node;
        private final Set<String> cannotStart;

        Bots(String node, Set<String> cannotStart) {
            this.node = node;
            this.cannotStart = cannotStart;
        }

        @Override
        public String name() {
            return "telegram";
        }

        @Override
        public void start(InboundSink sink) {
            throw new AssertionError("a channel elected account by account is never started whole");
        }

        @Override
        public void stop() {
            listening.values().forEach(nodes -> nodes.remove(node));
        }

        @Override
        public List<String> accounts() {
            return List.of("a", "b");
        }

        @Override
        public void startAccount(String account, InboundSink sink) throws Exception {
            if (cannotStart.contains(account))
                throw new java.io.IOException("the bot token of " + account + " is refused");
            listening
                    .computeIfAbsent(account, a -> ConcurrentHashMap.newKeySet())
                    .add(node);
        }

        @Override
        public void stopAccount(String account) {
            listening.getOrDefault(account, Set.of()).remove(node);
        }

        @Override
        public MessageAdapter messageAdapter() {
            return (message, cancel) -> MessageReceipt.of("x");
        }
    }

    private Map<String, Set<String>> listeners() {
        Map<String, Set<String>> out = new HashMap<>();
        listening.forEach((account, nodes) -> {
            if (!nodes.isEmpty()) out.put(account, Set.copyOf(nodes));
        });
        return out;
    }

    @Test
    void eachAccountIsHeldByOneNodeAndNeverByTwo() {
        // SPEC OP-2, CH-0: one listener per account across the cluster; rounds interleave as heartbeats do
        Node a = new Node("node-a", Set.of());
        Node b = new Node("node-b", Set.of());
        for (int i = 0; i < 5; i++) {
            b.beat();
            a.beat();
        }
        Map<String, Set<String>> now = listeners();
        assertThat(now).containsOnlyKeys("a", "b");
        assertThat(now.values()).allSatisfy(nodes -> assertThat(nodes).hasSize(1));
        List<String> held = new ArrayList<>(a.election.held());
        held.addAll(b.election.held());
        assertThat(held).containsExactlyInAnyOrder("telegram/a", "telegram/b");
        assertThat(b.election.held())
                .as("the first node to elect took both")
                .containsExactly("telegram/a", "telegram/b");
        assertThat(a.election.standby("telegram")).isTrue();
        assertThat(a.supervisor.running("telegram")).isFalse();
        assertThat(b.supervisor.running("telegram", "a")).isTrue();
    }

    @Test
    void anAccountThatCannotStartOnOneNodeGoesToAnotherWhileItsOtherAccountStays() {
        // SPEC CH-0, OP-2: one bot's failure gives up its own lease only; the accounts spread over the two nodes
        Node a = new Node("node-a", Set.of("b"));
        Node b = new Node("node-b", Set.of());
        a.beat();
        assertThat(a.election.held()).containsExactly("telegram/a");
        b.beat();
        a.beat();
        b.beat();
        assertThat(listeners()).isEqualTo(Map.of("a", Set.of("node-a"), "b", Set.of("node-b")));
        assertThat(a.election.held()).containsExactly("telegram/a");
        assertThat(b.election.held()).containsExactly("telegram/b");

        // SPEC OP-2: the fence checked is the one of the account the message came from
        a.receive("a", "1");
        b.receive("b", "2");
        assertThatThrownBy(() -> a.receive("b", "3"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("telegram/b listener lease moved");
        assertThatThrownBy(() -> b.receive("a", "4")).isInstanceOf(StoreException.class);
        assertThat(a.recorded).extracting(InboundMessage::id).containsExactly("1");
        assertThat(b.recorded).extracting(InboundMessage::id).containsExactly("2");
    }

    @Test
    void aDeadNodesAccountsAreHandedOverAndItsLateMessagesAreRefused() throws Exception {
        // SPEC OP-2, IN-4: the holder stops heartbeating (paused past its lease); the other node takes both accounts,
        // and what the deposed listeners hand on afterwards is refused before it is recorded (nothing acknowledged)
        Node a = new Node("node-a", Set.of());
        Node b = new Node("node-b", Set.of());
        a.beat();
        b.beat();
        assertThat(a.election.held()).containsExactly("telegram/a", "telegram/b");
        a.receive("a", "1");
        paused.add(a.name);
        Thread.sleep(TTL.toMillis() + 300);
        b.beat();
        assertThat(b.election.held()).containsExactly("telegram/a", "telegram/b");
        assertThat(b.supervisor.running("telegram", "a")).isTrue();
        assertThat(b.supervisor.running("telegram", "b")).isTrue();
        // the paused node resumes and its listeners, still running until its next round, hand on late messages
        assertThatThrownBy(() -> a.receive("a", "2")).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> a.receive("b", "3")).isInstanceOf(StoreException.class);
        assertThat(a.recorded).extracting(InboundMessage::id).containsExactly("1");
        assertThat(a.book.heartbeat("standby")).as("declared dead: fenced").isFalse();
        a.election.round();
        assertThat(a.supervisor.running("telegram"))
                .as("its round stops what it lost")
                .isFalse();
        assertThat(listeners()).isEqualTo(Map.of("a", Set.of("node-b"), "b", Set.of("node-b")));
        b.receive("a", "4");
        assertThat(b.recorded).extracting(InboundMessage::id).containsExactly("4");
    }
}

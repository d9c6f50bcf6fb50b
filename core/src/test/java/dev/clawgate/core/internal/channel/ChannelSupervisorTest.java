package dev.clawgate.core.internal.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.MessageReceipt;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the supervisor does with each listener (SPEC CH-0). */
class ChannelSupervisorTest {
    private final List<String> events = new ArrayList<>();
    private final InboundSink sink = m -> InboundSink.Acceptance.DUPLICATE;

    private Channel channel(String name, boolean failsToStart) {
        return new Channel() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start(InboundSink s) throws Exception {
                events.add("start " + name + (s == sink ? "" : " with another sink"));
                if (failsToStart) throw new java.io.IOException("token refused");
            }

            @Override
            public void stop() {
                events.add("stop " + name);
            }

            @Override
            public MessageAdapter messageAdapter() {
                return (message, cancel) -> MessageReceipt.of("x");
            }
        };
    }

    @Test
    void listenersStartInOrderStopAndStartAgainAndCloseInReverse() {
        ChannelSupervisor s = new ChannelSupervisor(List.of(channel("a", false), channel("b", false)), sink);
        s.startAll();
        s.start("a");
        s.stop("b");
        assertThat(s.health("b")).isEqualTo(ChannelHealth.down("stopped"));
        assertThat(s.health("a")).isEqualTo(ChannelHealth.UP);
        s.stop("b");
        s.restart("b");
        s.close();
        assertThat(events).containsExactly("start a", "start b", "stop b", "start b", "stop b", "stop a");
        assertThat(s.running("a")).isFalse();
    }

    @Test
    void aChannelThatCannotStartSaysWhyAndLeavesNothingRunning() {
        // SPEC CH-0: loudly, never silence
        ChannelSupervisor s = new ChannelSupervisor(List.of(channel("a", false), channel("tg", true)), sink);
        assertThatThrownBy(s::startAll)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("channel tg could not start: token refused");
        assertThat(events).containsExactly("start a", "start tg", "stop tg");
        assertThat(s.running("a")).isTrue();
        assertThat(s.running("tg")).isFalse();
        assertThatThrownBy(() -> s.start("nope")).hasMessage("no channel named nope");
    }

    /** A channel of two bots, a and b, each started and stopped on its own; {@code refused} cannot start. */
    private Channel bots(String refused) {
        return new Channel() {
            @Override
            public String name() {
                return "tg";
            }

            @Override
            public void start(InboundSink s) {
                events.add("start tg");
            }

            @Override
            public void stop() {
                events.add("stop tg");
            }

            @Override
            public List<String> accounts() {
                return List.of("a", "b");
            }

            @Override
            public void startAccount(String account, InboundSink s) throws Exception {
                events.add("start tg/" + account);
                if (account.equals(refused)) throw new java.io.IOException("token of " + account + " refused");
            }

            @Override
            public void stopAccount(String account) {
                events.add("stop tg/" + account);
            }

            @Override
            public ChannelHealth health(String account) {
                return ChannelHealth.down(account + " polling");
            }

            @Override
            public MessageAdapter messageAdapter() {
                return (message, cancel) -> MessageReceipt.of("x");
            }
        };
    }

    @Test
    void oneAccountStartsAndStopsWithoutTouchingTheOther() {
        // SPEC CH-0, OP-2: a cluster hands one bot of a channel to another node, not the channel
        ChannelSupervisor s = new ChannelSupervisor(List.of(bots(null)), sink);
        s.startAccount("tg", "a");
        s.startAccount("tg", "a");
        assertThat(s.running("tg")).isTrue();
        assertThat(s.running("tg", "a")).isTrue();
        assertThat(s.running("tg", "b")).isFalse();
        assertThat(s.health("tg", "a")).isEqualTo(ChannelHealth.down("a polling"));
        assertThat(s.health("tg", "b")).isEqualTo(ChannelHealth.down("stopped"));
        s.startAccount("tg", "b");
        s.stopAccount("tg", "a");
        assertThat(s.running("tg", "a")).isFalse();
        assertThat(s.running("tg", "b")).isTrue();
        assertThatThrownBy(() -> s.start("tg")).hasMessageContaining("runs account by account");
        s.close();
        assertThat(events).containsExactly("start tg/a", "start tg/b", "stop tg/a", "stop tg");
        assertThat(s.running("tg")).isFalse();
        assertThatThrownBy(() -> s.startAccount("tg", "c")).hasMessage("channel tg has no account listener c");
    }

    @Test
    void anAccountThatCannotStartSaysWhyAndLeavesTheOtherRunning() {
        // SPEC CH-0: loudly; only that bot is given up
        ChannelSupervisor s = new ChannelSupervisor(List.of(bots("b")), sink);
        s.startAccount("tg", "a");
        assertThatThrownBy(() -> s.startAccount("tg", "b"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("channel tg account b could not start: token of b refused");
        assertThat(events).containsExactly("start tg/a", "start tg/b", "stop tg/b");
        assertThat(s.running("tg", "a")).isTrue();
        assertThat(s.running("tg", "b")).isFalse();
    }

    @Test
    void aChannelStartedWholeRunsEveryAccount() {
        // SPEC CH-0: one node alone starts each channel whole, as before
        ChannelSupervisor s = new ChannelSupervisor(List.of(bots(null)), sink);
        s.startAll();
        s.startAccount("tg", "b");
        assertThat(s.running("tg", "b")).isTrue();
        s.stop("tg");
        assertThat(events).containsExactly("start tg", "stop tg");
    }
}

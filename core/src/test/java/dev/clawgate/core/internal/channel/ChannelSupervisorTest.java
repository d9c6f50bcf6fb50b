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
}

package dev.clawgate.core.internal.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.internal.inbound.ChannelNames.ChannelName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Multi-room channel names. */
class ChannelNamesTest {

    @Test
    void roomNameSplitsOnTheFirstColonOnly() {
        // SPEC MD-3: matrix:!room routes to the matrix channel with room !room
        assertThat(ChannelNames.split("matrix:!room:server")).isEqualTo(new ChannelName("matrix", "!room:server"));
        assertThat(ChannelNames.split("irc:#chan")).isEqualTo(new ChannelName("irc", "#chan"));
    }

    @Test
    void nameWithoutAColonIsAChannelWithoutARoom() {
        // SPEC MD-3: a plain channel name has no room
        assertThat(ChannelNames.split("telegram")).isEqualTo(new ChannelName("telegram", null));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", ":!room:server", ":", "matrix:", "matrix:  ", "mat rix:!room"})
    void malformedNameIsAClearError(String name) {
        // SPEC MD-3: a name that does not say which channel (or which room) is refused, naming the problem
        assertThatThrownBy(() -> ChannelNames.split(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching(".*(blank|no channel|no room|whitespace).*");
    }
}

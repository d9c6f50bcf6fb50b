package dev.clawgate.server.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the Control UI reads a channel's health detail per account, and session ids (SPEC CH-0, HI-1). */
class ChannelWatchTest {

    @Test
    void aDetailNamingAccountsIsSplitPerAccountAndOneNamingNoneIsAboutAll() {
        // SPEC CH-0: channels with several accounts join them as "id: why"
        Set<String> accounts = Set.of("main", "backup");
        String detail = "main: polling failed, retrying in 500 ms: Bad Gateway; backup: starting";
        assertThat(ChannelWatch.accountProblem(detail, "main", accounts))
                .isEqualTo("polling failed, retrying in 500 ms: Bad Gateway");
        assertThat(ChannelWatch.accountProblem(detail, "backup", accounts)).isEqualTo("starting");
        assertThat(ChannelWatch.accountProblem("main: down", "backup", accounts))
                .isNull();
        // a colon inside the reason is not an account
        String single = "polling failed, retrying in 500 ms: Connection refused";
        assertThat(ChannelWatch.accountProblem(single, "default", Set.of("default")))
                .isEqualTo(single);
    }

    @Test
    void aListenerOnItsWayUpIsNotAnError() {
        // SPEC CH-0: only real failures become the last error
        assertThat(ChannelWatch.isError("starting")).isFalse();
        assertThat(ChannelWatch.isError("default: starting; other: registering the webhook"))
                .isFalse();
        assertThat(ChannelWatch.isError("default: starting; other: polling failed: 502"))
                .isTrue();
        assertThat(ChannelWatch.isError("stopped")).isTrue();
    }

    @Test
    void aSessionIdRoundTripsEveryKeyAndTellsNullFromEmpty() {
        // SPEC HI-1: joined strings collide; the id keeps the tuple
        SessionKey withNulls = new SessionKey("telegram", "default", ChatType.GROUP, "-100|5", null, null);
        SessionKey withEmpty = new SessionKey("telegram", "default", ChatType.GROUP, "-100|5", "", "");
        assertThat(SessionIds.parse(SessionIds.of(withNulls))).isEqualTo(withNulls);
        assertThat(SessionIds.parse(SessionIds.of(withEmpty))).isEqualTo(withEmpty);
        assertThat(SessionIds.of(withNulls))
                .isNotEqualTo(SessionIds.of(withEmpty))
                .matches("[A-Za-z0-9_-]+");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SessionIds.parse("telegram_111_111"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.clawgate.channel.xmpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class XmppSettingsTest {
    private static ChannelSettings settings(String... kv) {
        Map<String, String> o = new HashMap<>(Map.of("jid", "bot@example.org", "password", "pw"));
        for (int i = 0; i + 1 < kv.length; i += 2) o.put(kv[i], kv[i + 1]);
        return new ChannelSettings("xmpp", AccessSettings.defaults(), Map.of(), o);
    }

    @Test
    void defaultsAreStarttlsOn5222ToTheJidsDomain() {
        // SPEC CH-8: STARTTLS required unless configured otherwise
        XmppSettings s = XmppSettings.of(settings());
        assertThat(s.tls()).isEqualTo(XmppSettings.Tls.STARTTLS);
        assertThat(s.port()).isEqualTo(5222);
        assertThat(s.connectHost()).isEqualTo("example.org");
        assertThat(s.nick()).isEqualTo("clawgate");
        assertThat(XmppSettings.of(settings("tls", "direct")).port()).isEqualTo(5223);
        assertThat(s.toString()).doesNotContain("pw");
    }

    @Test
    void roomsAreACommaSeparatedListOfBareJids() {
        // SPEC CH-8
        assertThat(XmppSettings.of(settings("rooms", "a@conf.example.org, B@conf.example.org,a@conf.example.org"))
                        .rooms())
                .containsExactly("a@conf.example.org", "b@conf.example.org");
        assertThatThrownBy(() -> XmppSettings.of(settings("rooms", "#irc-style")))
                .hasMessageStartingWith("channels.xmpp.rooms ");
    }

    @Test
    void eachErrorNamesItsKey() {
        // SPEC CH-8 (config errors name the key)
        assertThatThrownBy(() -> XmppSettings.of(settings("jid", "no-domain")))
                .hasMessageStartingWith("channels.xmpp.jid ");
        assertThatThrownBy(() -> XmppSettings.of(settings("tls", "yes"))).hasMessageStartingWith("channels.xmpp.tls ");
        assertThatThrownBy(() -> XmppSettings.of(settings("port", "0"))).hasMessageStartingWith("channels.xmpp.port ");
        assertThatThrownBy(() -> XmppSettings.of(settings("text_limit", "10")))
                .hasMessageStartingWith("channels.xmpp.text_limit ");
        assertThatThrownBy(() -> XmppSettings.of(new ChannelSettings(
                        "xmpp", AccessSettings.defaults(), Map.of(), Map.of("jid", "bot@example.org"))))
                .hasMessageStartingWith("channels.xmpp.password ");
        XmppSettings.check(new ChannelSettings("xmpp", AccessSettings.defaults(), Map.of(), Map.of()));
    }

    @Test
    void addressingNeedsTheNickThenAColonOrComma() {
        // SPEC CH-8, IN-6: only "nick: ..." and "nick, ..." are addressed
        assertThat(XmppText.addressedTo("clawbot", "ClawBot: hi there")).isEqualTo("hi there");
        assertThat(XmppText.addressedTo("clawbot", "  clawbot, hi")).isEqualTo("hi");
        assertThat(XmppText.addressedTo("clawbot", "clawbotty: hi")).isNull();
        assertThat(XmppText.addressedTo("clawbot", "hi clawbot: x")).isNull();
        assertThat(XmppText.addressedTo("clawbot", "clawbot")).isNull();
    }

    @Test
    void outboundTextDropsWhatXmlCannotCarryAndKeepsTheRest() {
        // SPEC CH-8: a reply can never break the stream
        assertThat(XmppText.outbound("a\u0000b\u0007c\td\ne😀\uFFFF\uD800")).isEqualTo("abc\td\ne😀");
        assertThat(XmppText.inbound("a\r\nb\rc")).isEqualTo("a\nb\nc");
    }
}

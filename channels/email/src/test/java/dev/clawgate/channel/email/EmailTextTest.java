package dev.clawgate.channel.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmailTextTest {
    @Test
    void quotedRepliesAreStrippedAtTheAttributionOrTheFirstQuotedLine() {
        // SPEC CH-9: only the new text of a reply is the turn
        assertThat(EmailText.stripQuoted(
                        "Yes please.\n\nOn Fri, 27 Nov 2026 at 10:00, Bot <bot@x> wrote:\n> Shall " + "I?"))
                .isEqualTo("Yes please.");
        assertThat(EmailText.stripQuoted("Fine\r\n> old\r\n> older")).isEqualTo("Fine");
        assertThat(EmailText.stripQuoted("Ok\nOn Fri, 27 Nov 2026, Bot <bot@x>\nwrote:\n> a"))
                .isEqualTo("Ok");
        assertThat(EmailText.stripQuoted("Sure\n-----Original Message-----\nFrom: bot"))
                .isEqualTo("Sure");
        assertThat(EmailText.stripQuoted("Thanks\n-- \nAlice, Example Ltd")).isEqualTo("Thanks");
        assertThat(EmailText.stripQuoted("a > b is true\nsecond line")).isEqualTo("a > b is true\nsecond line");
    }

    @Test
    void htmlIsFlattenedToText() {
        // SPEC CH-9: HTML bodies flattened; scripts, styles and quoted blocks dropped
        assertThat(EmailText.flattenHtml("<html><head><style>p{}</style></head><body><p>One &amp; "
                        + "<i>two</i></p><div>three</div>"
                        + "<blockquote>old</blockquote>four<br>five&nbsp;&lt;6&gt;</body></html>"))
                .isEqualTo("One & two\nthree\nfour\nfive <6>");
    }

    @Test
    void theHtmlAlternativeEscapesAndKeepsParagraphs() {
        // SPEC CH-9: a reply's simple HTML part
        assertThat(EmailText.html("a <b>\nc\n\nd & \"e\""))
                .isEqualTo(
                        "<!DOCTYPE html><html><body><p>a &lt;b&gt;<br>c</p><p>d &amp; &quot;e&quot;</p></body></html>");
    }

    @Test
    void theReplySubjectSaysReOnce() {
        // SPEC CH-9
        assertThat(EmailText.replySubject("Plans")).isEqualTo("Re: Plans");
        assertThat(EmailText.replySubject("RE: Plans")).isEqualTo("RE: Plans");
        assertThat(EmailText.replySubject(null)).isEqualTo("Re: your message");
    }

    @Test
    void theThreadIsTheFirstReferenceElseInReplyToElseTheMailItself() {
        // SPEC CH-9: a thread (References/In-Reply-To) is the session
        assertThat(EmailInbound.threadRoot("<c@x>", "<a@x>\r\n <b@x>", "<b@x>")).isEqualTo("<a@x>");
        assertThat(EmailInbound.threadRoot("<c@x>", null, "<b@x>")).isEqualTo("<b@x>");
        assertThat(EmailInbound.threadRoot("<c@x>", "garbage", null)).isEqualTo("<c@x>");
    }

    private static ChannelSettings settings(String... kv) {
        Map<String, String> o =
                new HashMap<>(Map.of("imap_host", "mail.example.org", "username", "bot@example.org", "password", "pw"));
        for (int i = 0; i + 1 < kv.length; i += 2) o.put(kv[i], kv[i + 1]);
        return new ChannelSettings("email", AccessSettings.defaults(), Map.of(), o);
    }

    @Test
    void settingsDefaultToStarttlsAndNameTheKeyOnError() {
        // SPEC CH-9 (config errors name the key)
        EmailSettings s = EmailSettings.of(settings());
        assertThat(s.tls()).isEqualTo(EmailSettings.Tls.STARTTLS);
        assertThat(s.imapPort()).isEqualTo(143);
        assertThat(s.smtpPort()).isEqualTo(587);
        assertThat(s.smtpHost()).isEqualTo("mail.example.org");
        assertThat(s.from()).isEqualTo("bot@example.org");
        assertThat(s.folder()).isEqualTo("INBOX");
        assertThat(s.toString()).doesNotContain("pw");
        EmailSettings implicit = EmailSettings.of(settings("tls", "implicit"));
        assertThat(implicit.imapPort()).isEqualTo(993);
        assertThat(implicit.smtpPort()).isEqualTo(465);
        assertThatThrownBy(() -> EmailSettings.of(settings("tls", "ssl")))
                .hasMessageStartingWith("channels.email.tls ");
        assertThatThrownBy(() -> EmailSettings.of(settings("imap_port", "70000")))
                .hasMessageStartingWith("channels.email.imap_port ");
        assertThatThrownBy(() -> EmailSettings.of(settings("username", "bot")))
                .hasMessageStartingWith("channels.email.from ");
        assertThatThrownBy(() -> EmailSettings.of(settings("from", "not an address")))
                .hasMessageStartingWith("channels.email.from ");
        EmailSettings.check(new ChannelSettings("email", AccessSettings.defaults(), Map.of(), Map.of()));
    }
}

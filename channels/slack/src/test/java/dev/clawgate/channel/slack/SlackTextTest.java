package dev.clawgate.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Markdown to Slack mrkdwn, and received mrkdwn to plain text (SPEC CH-4, OUT-1). */
class SlackTextTest {
    @Test
    void markdownIsRenderedAsMrkdwn() {
        assertThat(SlackText.render("**bold** and *it* and ~~gone~~")).isEqualTo("*bold* and _it_ and ~gone~");
        assertThat(SlackText.render("see [the docs](https://x.example/a?b=1) now"))
                .isEqualTo("see <https://x.example/a?b=1|the docs> now");
        assertThat(SlackText.render("# Title\n- one\n* two")).isEqualTo("*Title*\n• one\n• two");
        assertThat(SlackText.render("a < b & c > d")).isEqualTo("a &lt; b &amp; c &gt; d");
    }

    @Test
    void codeIsKeptWholeAndEscaped() {
        assertThat(SlackText.render("run `a **b** <c>` now")).isEqualTo("run `a **b** &lt;c&gt;` now");
        assertThat(SlackText.render("```java\nif (a < b) **x**\n```\nafter **b**"))
                .isEqualTo("```\nif (a &lt; b) **x**\n```\nafter *b*");
    }

    @Test
    void anUnclosedFenceIsClosed() {
        // SPEC OUT-1: a chunk cut inside a fence still renders as one balanced block
        String out = SlackText.render("text\n```\ncode line");
        assertThat(out).isEqualTo("text\n```\ncode line\n```");
        assertThat(out.split("```", -1)).hasSize(3);
    }

    @Test
    void receivedTextIsReadBackAsPlainText() {
        assertThat(SlackText.plain(
                        "<@UBOT> hi <@U2|bob> in <#C1|general>: <https://a.example|a link> &lt;b&gt; &amp; <!here>",
                        "UBOT",
                        "clawbot"))
                .isEqualTo("@clawbot hi @bob in #general: a link (https://a.example) <b> & @here");
        assertThat(SlackText.plain("<https://a.example>", "UBOT", "clawbot")).isEqualTo("https://a.example");
    }
}

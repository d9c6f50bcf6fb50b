package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Markdown to Telegram HTML (SPEC CH-3): escaped, with the basic styles converted. */
class TelegramHtmlTest {
    @Test
    void escapesAndConvertsTheBasics() {
        assertThat(TelegramHtml.render("a < b && c > d")).isEqualTo("a &lt; b &amp;&amp; c &gt; d");
        assertThat(TelegramHtml.render("**bold** and *it* and _it2_ and ~~gone~~"))
                .isEqualTo("<b>bold</b> and <i>it</i> and <i>it2</i> and <s>gone</s>");
        assertThat(TelegramHtml.render("use `a<b>` here")).isEqualTo("use <code>a&lt;b&gt;</code> here");
        assertThat(TelegramHtml.render("[docs](https://example.com/a?b=1&c=2)"))
                .isEqualTo("<a href=\"https://example.com/a?b=1&amp;c=2\">docs</a>");
        assertThat(TelegramHtml.render("# Title")).isEqualTo("<b>Title</b>");
        assertThat(TelegramHtml.render("snake_case_name stays")).isEqualTo("snake_case_name stays");
    }

    @Test
    void aFencedBlockBecomesPreCodeWithItsLanguage() {
        assertThat(TelegramHtml.render("see:\n```python\nif a < b:\n    print(**x)\n```\ndone"))
                .isEqualTo(
                        "see:\n<pre><code class=\"language-python\">if a &lt; b:\n    print(**x)</code></pre>\ndone");
        assertThat(TelegramHtml.render("```\nplain\n```")).isEqualTo("<pre><code>plain</code></pre>");
    }
}

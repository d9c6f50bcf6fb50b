package dev.clawgate.channel.irc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class IrcTextTest {

    @Test
    void markdownIsFlattenedAndCodeFencesAreSentAsTheirLines() {
        // SPEC CH-7: plain text on IRC, code fences as lines
        List<String> lines = IrcText.lines("""
                # Plan
                This is **bold**, _italic_, `code` and ~~gone~~ text; see [the docs](https://example.org/d).

                > quoted
                ---
                ```java
                int x = 1;

                \tif (x > 0) return;
                ```
                - a snake_case_name stays
                """);
        assertThat(lines)
                .containsExactly(
                        "Plan",
                        "This is bold, italic, code and gone text; see the docs (https://example.org/d).",
                        "quoted",
                        "int x = 1;",
                        " ",
                        "    if (x > 0) return;",
                        "- a snake_case_name stays");
    }

    @Test
    void controlCharactersThatMeanSomethingOnIrcAreDropped() {
        // SPEC CH-7: no CR/LF injection of a second command, no CTCP or colour codes from the model
        assertThat(IrcText.lines("a\u0001VERSION\u0001 b\u0003 c\rQUIT :x")).containsExactly("aVERSION b c", "QUIT :x");
    }

    @Test
    void aLongLineIsCutAtSpacesWithinTheBudgetAndNothingIsLost() {
        // SPEC OUT-1, CH-7: cut to the byte budget, at a space where one fits
        String line = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu";
        List<String> pieces = IrcText.split(line, 16);
        assertThat(pieces)
                .allSatisfy(p ->
                        assertThat(p.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(16));
        assertThat(pieces).allSatisfy(p -> assertThat(p).doesNotStartWith(" ").doesNotEndWith(" "));
        assertThat(String.join(" ", pieces)).isEqualTo(line);
    }

    @Test
    void utf8IsNeverCutInsideACharacter() {
        // SPEC CH-7: UTF-8 never cut mid-character, whatever the budget
        String word = "é🦀日本語ü".repeat(40); // 2-, 4- and 3-byte characters, no space to cut at
        for (int budget = 4; budget <= 40; budget++) {
            List<String> pieces = IrcText.split(word, budget);
            StringBuilder back = new StringBuilder();
            for (String p : pieces) {
                byte[] bytes = p.getBytes(StandardCharsets.UTF_8);
                assertThat(bytes.length).isLessThanOrEqualTo(budget);
                assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(p);
                assertThat(Character.isLowSurrogate(p.charAt(0))).isFalse();
                assertThat(Character.isHighSurrogate(p.charAt(p.length() - 1))).isFalse();
                back.append(p);
            }
            assertThat(back.toString()).isEqualTo(word);
        }
    }

    @Test
    void aBudgetTooSmallForACharacterIsRefused() {
        assertThatThrownBy(() -> IrcText.split("x", 3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void protocolLinesAreParsed() {
        // RFC 2812 2.3.1: prefix, command, middle parameters, trailing parameter
        IrcLine l = IrcLine.parse("@time=x :alice!~a@host PRIVMSG #room :clawbot: hi there");
        assertThat(l.prefix()).isEqualTo("alice!~a@host");
        assertThat(l.nick()).isEqualTo("alice");
        assertThat(l.command()).isEqualTo("PRIVMSG");
        assertThat(l.params()).containsExactly("#room", "clawbot: hi there");
        assertThat(IrcLine.parse("PING :irc.example").trailing()).isEqualTo("irc.example");
        assertThat(IrcLine.parse(":srv 433 * clawbot :Nickname already in use").param(1))
                .isEqualTo("clawbot");
    }

    @Test
    void aChannelLineIsAddressedOnlyByTheNickFollowedByColonOrComma() {
        // SPEC CH-7: a turn only when addressed
        assertThat(IrcInbound.addressedText("clawbot: what time is it", "clawbot"))
                .isEqualTo("what time is it");
        assertThat(IrcInbound.addressedText("ClawBot, hi", "clawbot")).isEqualTo("hi");
        assertThat(IrcInbound.addressedText("clawbots: hi", "clawbot")).isNull();
        assertThat(IrcInbound.addressedText("hey clawbot: hi", "clawbot")).isNull();
        assertThat(IrcInbound.addressedText("clawbot", "clawbot")).isNull();
    }
}

package dev.clawgate.core.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShellCommandTest {

    // SPEC AG-5
    @Test
    void splitsWordsAndHonoursQuotes() throws Exception {
        assertThat(ShellCommand.parse("ls -la  src").argv()).containsExactly("ls", "-la", "src");
        assertThat(ShellCommand.parse("echo 'a b;c' \"d $e `f` \\\"g\\\"\"").argv())
                .containsExactly("echo", "a b;c", "d $e `f` \"g\"");
        assertThat(ShellCommand.parse("echo pre'mid'\"post\"").argv()).containsExactly("echo", "premidpost");
        assertThat(ShellCommand.parse("echo '' x").argv()).containsExactly("echo", "", "x");
        assertThat(ShellCommand.parse("echo a\\ b \\;").argv()).containsExactly("echo", "a b", ";");
        assertThat(ShellCommand.parse("grep 'line one\nline two' f").argv())
                .containsExactly("grep", "line one\nline two", "f");
        assertThat(ShellCommand.parse("\techo\t'日本語 😀'").argv()).containsExactly("echo", "日本語 😀");
    }

    // SPEC AG-5
    @ParameterizedTest
    @ValueSource(
            strings = {
                "ls; rm -rf /",
                "ls $(id)",
                "ls `id`",
                "ls && rm x",
                "ls || rm x",
                "ls | sh",
                "ls > f",
                "cat < /etc/passwd",
                "ls &",
                "(ls)",
                "ls\nrm -rf /",
                "ls\r\nrm x",
                "echo ${HOME}",
                "ls 2>&1"
            })
    void shellOperatorsOutsideQuotesAreRefused(String line) {
        assertThatThrownBy(() -> ShellCommand.parse(line)).isInstanceOf(RefusedException.class);
    }

    // SPEC AG-5
    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "echo 'open", "echo \"open", "echo trailing\\", "'' ls", "a\0b"})
    void malformedOrEmptyCommandsAreRefused(String line) {
        assertThatThrownBy(() -> ShellCommand.parse(line)).isInstanceOf(RefusedException.class);
    }

    // SPEC AG-5: whatever the input, an accepted command has a non-empty program and no word
    // holds an operator unless the input quoted or escaped it
    @Test
    void randomLinesNeverSmuggleAnUnquotedOperator() {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        String alphabet = "ab ;&|$`<>()'\"\\\n\t";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder("echo ");
            int len = rnd.nextInt(12);
            for (int j = 0; j < len; j++) sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            String line = sb.toString();
            try {
                List<String> argv = ShellCommand.parse(line).argv();
                assertThat(argv.getFirst()).as("seed %d, line %s", seed, line).isEqualTo("echo");
                assertThat(hasBareOperator(line))
                        .as("seed %d, line %s", seed, line)
                        .isFalse();
            } catch (RefusedException e) {
                // refusing is always safe
            }
        }
    }

    /** An independent scan: is there an operator character outside quotes and not escaped? */
    private static boolean hasBareOperator(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') quote = 0;
            } else if (quote == '"') {
                if (c == '\\' && i + 1 < line.length()) i++;
                else if (c == '"') quote = 0;
            } else if (c == '\\') {
                i++;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (ShellCommand.METACHARACTERS.indexOf(c) >= 0 || c == '\n') {
                return true;
            }
        }
        return false;
    }
}

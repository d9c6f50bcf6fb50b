package dev.clawgate.core.internal.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runtime commands beyond /stop. */
class RuntimeCommandTest {

    private static Optional<RuntimeCommand> parse(String s) {
        return RuntimeCommand.parse(s);
    }

    // SPEC RT-1
    @Test
    void everyCommandIsRecognisedWithItsArguments() {
        assertThat(parse("/new")).contains(new RuntimeCommand.New());
        assertThat(parse("  /Status  ")).contains(new RuntimeCommand.Status());
        assertThat(parse("/model gpt-4o-mini extra")).contains(new RuntimeCommand.Model("gpt-4o-mini"));
        assertThat(parse("/model")).contains(new RuntimeCommand.Models(null));
        assertThat(parse("/models")).contains(new RuntimeCommand.Models(null));
        assertThat(parse("/models  openrouter")).contains(new RuntimeCommand.Models("openrouter"));
        assertThat(parse("/queue collect debounce:2s cap:5"))
                .contains(new RuntimeCommand.Queue("collect debounce:2s cap:5"));
        assertThat(parse("/queue")).contains(new RuntimeCommand.Queue(""));
        assertThat(parse("/reasoning STREAM")).contains(new RuntimeCommand.Reasoning("stream"));
        assertThat(parse("/reasoning on")).contains(new RuntimeCommand.Reasoning("on"));
        assertThat(parse("/reasoning off")).contains(new RuntimeCommand.Reasoning("off"));
    }

    // SPEC RT-1: a known command with a bad argument is answered, not sent to the model
    @Test
    void aBadReasoningModeIsAnsweredWithItsUsage() {
        assertThat(parse("/reasoning loud"))
                .contains(new RuntimeCommand.Invalid("reasoning", "usage: /reasoning on|off|stream"));
        assertThat(parse("/reasoning")).containsInstanceOf(RuntimeCommand.Invalid.class);
    }

    // SPEC RT-1, DI-5: group bots see /cmd@botname
    @Test
    void aBotNameSuffixAndLaterLinesAreTolerated() {
        assertThat(parse("/stop@my_bot")).contains(new RuntimeCommand.Stop());
        assertThat(parse("/MODEL@bot claude")).contains(new RuntimeCommand.Model("claude"));
        assertThat(parse("/new\nand some text")).contains(new RuntimeCommand.New());
    }

    // SPEC RT-1: unknown /words go to the model
    @ParameterizedTest
    @ValueSource(strings = {"/", "/ stop", "/help", "/newer", "hello /stop", "//stop", "\t", "/@bot"})
    void anythingElseIsNotACommand(String text) {
        assertThat(parse(text)).isEmpty();
    }

    // SPEC RT-1
    @Test
    void nullIsNotACommand() {
        assertThat(parse(null)).isEmpty();
    }
}

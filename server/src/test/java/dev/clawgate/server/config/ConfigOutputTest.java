package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.render.HumanDelay;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.render.ReplyToMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How replies are shaped per channel: reply_to_mode, the response prefix cascade, block streaming (SPEC OUT-2, OUT-3).
 */
class ConfigOutputTest {
    @TempDir
    Path dir;

    private ClawgateConfig load(String toml) {
        return new ConfigFixture(dir).load(toml);
    }

    private String error(String toml) {
        try {
            load(toml);
        } catch (ConfigException e) {
            return e.getMessage();
        }
        throw new AssertionError("no error loading " + toml);
    }

    @Test
    void withoutKeysTheModeFollowsTheChatTypeAndThereIsNoPrefixOrStreaming() {
        // SPEC OUT-3 defaults, OUT-2 off by default
        ClawgateConfig config = load(ConfigFileCase.NO_KEYS);
        assertThat(config.responsePrefix()).isEmpty();
        ChannelOutput out = config.channel("telegram").output();
        assertThat(out.replyToModeFor(ChatType.GROUP)).isEqualTo(ReplyToMode.FIRST);
        assertThat(out.replyToModeFor(ChatType.DIRECT)).isEqualTo(ReplyToMode.OFF);
        assertThat(out.blockStreaming()).isNull();
    }

    @Test
    void theCascadeReachesEachLevelAndAnEmptyPrefixIsKept() {
        // SPEC OUT-3: messages.response_prefix, channels.<ch>.response_prefix,
        // channels.<ch>.accounts.<id>.response_prefix
        ClawgateConfig config = load("""
                [messages]
                response_prefix = "[{model}]"
                [channels.slack]
                reply_to_mode = "Batched"
                response_prefix = ""
                [channels.slack.accounts.support]
                response_prefix = "{identity.name}:"
                """);
        assertThat(config.responsePrefix()).isEqualTo("[{model}]");
        ChannelOutput slack = config.channel("slack").output();
        assertThat(slack.replyToModeFor(ChatType.DIRECT)).isEqualTo(ReplyToMode.BATCHED);
        assertThat(slack.responsePrefix()).isEmpty();
        assertThat(slack.accountPrefixes()).isEqualTo(Map.of("support", "{identity.name}:"));
    }

    @Test
    void anUnknownModeNamesTheKeyAndTheModes() {
        // SPEC OUT-3
        assertThat(error("[channels.slack]\nreply_to_mode = \"sometimes\"\n"))
                .contains("channels.slack.reply_to_mode")
                .contains("off, first, all, batched");
    }

    @Test
    void blockStreamingIsReadFromItsTableWhenEnabled() {
        // SPEC OUT-2: break, min_chars, max_chars, break_preference, coalesce_idle_ms, human_delay
        ClawgateConfig config = load("""
                [channels.slack.block_streaming]
                enabled = true
                break = "message_end"
                min_chars = 100
                max_chars = 500
                break_preference = "sentence"
                coalesce_idle_ms = 250
                human_delay = "300-900"
                """);
        assertThat(config.channel("slack").output().blockStreaming())
                .isEqualTo(new BlockStreaming(
                        BlockStreaming.BreakMode.MESSAGE_END,
                        100,
                        500,
                        BlockStreaming.BreakPreference.SENTENCE,
                        Duration.ofMillis(250),
                        HumanDelay.custom(Duration.ofMillis(300), Duration.ofMillis(900))));
        assertThat(load("[channels.slack.block_streaming]\nenabled = true\n")
                        .channel("slack")
                        .output()
                        .blockStreaming())
                .isEqualTo(BlockStreaming.defaults());
        assertThat(load("[channels.slack.block_streaming]\nmin_chars = 10\n")
                        .channel("slack")
                        .output()
                        .blockStreaming())
                .isNull();
        assertThat(load("[channels.slack.block_streaming]\nenabled = true\nhuman_delay = \"natural\"\n")
                        .channel("slack")
                        .output()
                        .blockStreaming()
                        .humanDelay())
                .isEqualTo(HumanDelay.natural());
    }

    @Test
    void badBlockStreamingValuesNameTheKey() {
        // SPEC OUT-2
        assertThat(error("[channels.slack.block_streaming]\nenabled = true\nbreak = \"soon\"\n"))
                .contains("block_streaming.break");
        assertThat(error("[channels.slack.block_streaming]\nenabled = true\nmin_chars = 900\nmax_chars = 600\n"))
                .contains("block_streaming.min_chars");
        assertThat(error("[channels.slack.block_streaming]\nenabled = true\nhuman_delay = \"900-300\"\n"))
                .contains("block_streaming.human_delay");
        assertThatThrownBy(() -> load("[channels.slack.block_streaming]\nmax_char = 600\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("max_chars");
    }
}

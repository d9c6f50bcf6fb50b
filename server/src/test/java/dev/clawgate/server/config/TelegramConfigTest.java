package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code [channels.telegram]} values through the real loader (SPEC CH-3): a value the channel cannot work with fails
 * the load with one line naming the key and the file, as every other config error does, instead of surfacing when the
 * gateway starts the channel.
 */
class TelegramConfigTest extends ConfigFileCase {
    private static final String TOKEN = "123456:Config-test_token";
    private static final String WEBHOOK = """
            [channels.telegram]
            bot_token = "%s"
            mode = "webhook"
            webhook_url = "https://bot.example.com/webhooks/telegram"
            """.formatted(TOKEN);

    @Test
    void webhookModeWithoutASecretIsAnErrorNamingTheSecret() {
        // SPEC CH-3: webhook mode needs webhook_secret
        assertThat(fixture.error(WEBHOOK))
                .startsWith("'channels.telegram.webhook_secret' in " + file + " is missing;")
                .contains("requires 1-256 characters of A-Z, a-z, 0-9, _ and -");
    }

    @Test
    void aSecretTelegramWouldRefuseIsAnErrorThatDoesNotRepeatTheSecret() {
        // SPEC CH-3 (Telegram's secret_token charset), OP-6 (secrets are never echoed)
        String message = fixture.error(WEBHOOK + "webhook_secret = \"my secret!pass\"\n");
        assertThat(message)
                .startsWith("'channels.telegram.webhook_secret' in " + file + " is invalid;")
                .doesNotContain("my secret!pass");
    }

    @Test
    void webhookModeWithoutAUrlIsAnErrorNamingTheUrl() {
        // SPEC CH-3: webhook_url
        assertThat(fixture.error("[channels.telegram]\nbot_token = \"" + TOKEN
                        + "\"\nmode = \"webhook\"\nwebhook_secret = \"s3cret\"\n"))
                .startsWith("'channels.telegram.webhook_url' in " + file + " is missing;")
                .contains("https://bot.example.com/webhooks/telegram");
        assertThat(fixture.error(WEBHOOK.replace("https://bot.example.com/webhooks/telegram", "bot.example.com")
                        + "webhook_secret = \"s\"\n"))
                .startsWith("'channels.telegram.webhook_url' in " + file + " must be an http(s) URL with a host");
    }

    @Test
    void aTextLimitOutsideTelegramsRangeIsAnError() {
        // SPEC CH-3 (limit 4096 UTF-16 units), OUT-1
        assertThat(fixture.error("[channels.telegram]\ntext_limit = 5000\n"))
                .isEqualTo("'channels.telegram.text_limit' in " + file + " must be between 16 and 4096, got 5000");
        assertThat(fixture.error("[channels.telegram]\ntext_limit = 3\n")).contains("got 3");
    }

    @Test
    void anUnknownStreamModeOrModeIsAnErrorNamingTheWordsThatWork() {
        // SPEC OUT-9 (stream_mode off | preview), CH-3 (mode polling | webhook)
        assertThat(fixture.error("[channels.telegram]\nstream_mode = \"live\"\n"))
                .isEqualTo(
                        "'channels.telegram.stream_mode' in " + file + " must be \"off\" or \"preview\", got \"live\"");
        assertThat(fixture.error("[channels.telegram]\nmode = \"push\"\n"))
                .isEqualTo("'channels.telegram.mode' in " + file + " must be \"polling\" or \"webhook\", got \"push\"");
    }

    @Test
    void afterDurableSendInWebhookModeIsAnErrorNamingTheAckPolicy() {
        // SPEC IN-3: webhook adapters may declare only after_receive_record
        assertThat(fixture.error(WEBHOOK + "webhook_secret = \"s3cret\"\nack_policy = \"after_durable_send\"\n"))
                .startsWith("'channels.telegram.ack_policy' in " + file
                        + " = \"after_durable_send\" needs mode = \"polling\"");
    }

    @Test
    void anAccountsBadValueIsNamedInTheAccountsTableAndAnInheritedOneInTheChannels() {
        // SPEC CH-3 (several accounts; keys not set in an account come from [channels.telegram])
        String accounts = """
                [channels.telegram]
                stream_mode = "%s"

                [channels.telegram.accounts.support]
                bot_token = "%s"
                mode = "webhook"
                webhook_url = "https://bot.example.com/support"
                """;
        assertThat(fixture.error(accounts.formatted("off", TOKEN)))
                .startsWith("'channels.telegram.accounts.support.webhook_secret' in " + file + " is missing;");
        assertThat(fixture.error(accounts.formatted("sometimes", TOKEN) + "webhook_secret = \"s3cret\"\n"))
                .startsWith("'channels.telegram.stream_mode' in " + file + " must be");
    }

    @Test
    void mediaLimitsMustBePositive() {
        // SPEC OP-7 (downloaded media are bounded: media_max_age_hours, media_max_total_mb)
        assertThat(fixture.error("[channels.telegram]\nmedia_max_age_hours = 0\n"))
                .isEqualTo("'channels.telegram.media_max_age_hours' in " + file + " must be 1 or more, got 0");
        assertThat(fixture.error("[channels.telegram.accounts.support]\nbot_token = \"" + TOKEN
                        + "\"\nmedia_max_total_mb = -5\n"))
                .isEqualTo("'channels.telegram.accounts.support.media_max_total_mb' in " + file
                        + " must be 1 or more, got -5");
        assertThat(fixture.load("[channels.telegram]\nmedia_max_age_hours = 24\nmedia_max_total_mb = 200\n")
                        .channel("telegram")
                        .options())
                .containsEntry("media_max_age_hours", "24")
                .containsEntry("media_max_total_mb", "200");
    }

    @Test
    void goodValuesLoadAndATableWithoutATokenYetStillLoads() {
        // SPEC CH-3: a valid webhook bot loads; a missing bot_token is left to `clawgate run` and `doctor`, which say
        // what to set
        ClawgateConfig config = fixture.load(
                WEBHOOK + "webhook_secret = \"${HOOK_SECRET}\"\nstream_mode = \"preview\"\ntext_limit = 4000\n",
                Map.of("HOOK_SECRET", "from-the_env-123"));
        assertThat(config.channel("telegram").options())
                .containsEntry("webhook_secret", "from-the_env-123")
                .containsEntry("text_limit", "4000");
        assertThat(fixture.load("[channels.telegram]\ndm_policy = \"allowlist\"\nallowed_users = [\"111\"]\n")
                        .channel("telegram")
                        .options())
                .isEmpty();
    }
}

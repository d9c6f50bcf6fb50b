package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code [channels.telegram] ack_policy} (SPEC IN-3): after_receive_record by default, after_durable_send for polling
 * bots.
 */
class TelegramAckPolicySettingTest {
    private static ChannelSettings table(Map<String, String> extra, Map<String, Map<String, String>> accounts) {
        Map<String, String> o = new LinkedHashMap<>(Map.of("bot_token", "123:abc", "api_base", "http://127.0.0.1:9"));
        o.putAll(extra);
        return new ChannelSettings("telegram", AccessSettings.defaults(), Map.of(), o, accounts, null);
    }

    @Test
    void theDefaultIsAfterReceiveRecord() {
        // SPEC IN-3: Telegram's default
        assertThat(TelegramSettings.accounts(table(Map.of(), Map.of())))
                .singleElement()
                .extracting(TelegramAccount::ackPolicy)
                .isEqualTo(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    @Test
    void aPollingBotMayWaitForTheDurableSendAndAnAccountMayChooseOtherwise() {
        // SPEC IN-3 after_durable_send, per adapter account
        var accounts = TelegramSettings.accounts(table(
                Map.of("ack_policy", "after_durable_send"),
                Map.of("support", Map.of("bot_token", "456:def", "ack_policy", "after_receive_record"))));
        assertThat(accounts)
                .extracting(TelegramAccount::id, TelegramAccount::ackPolicy)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("default", AckPolicy.AFTER_DURABLE_SEND),
                        org.assertj.core.groups.Tuple.tuple("support", AckPolicy.AFTER_RECEIVE_RECORD));
        assertThat(new TelegramChannel(accounts, java.nio.file.Path.of("target")).ackPolicies())
                .containsExactlyInAnyOrder(AckPolicy.AFTER_RECEIVE_RECORD, AckPolicy.AFTER_DURABLE_SEND);
    }

    @Test
    void aWebhookCannotWaitForTheDurableSendAndAnUnknownPolicyIsNamed() {
        // SPEC IN-3: webhook adapters may declare only after_receive_record
        assertThatThrownBy(() -> TelegramSettings.accounts(table(
                        Map.of(
                                "ack_policy",
                                "after_durable_send",
                                "mode",
                                "webhook",
                                "webhook_url",
                                "https://bot.example.com/hook",
                                "webhook_secret",
                                "s3cret"),
                        Map.of())))
                .hasMessageContaining("channels.telegram.ack_policy")
                .hasMessageContaining("polling");
        assertThatThrownBy(() -> TelegramSettings.accounts(table(Map.of("ack_policy", "after_lunch"), Map.of())))
                .hasMessageContaining("channels.telegram.ack_policy must be")
                .hasMessageContaining("after_lunch");
        assertThat(new TelegramChannel(
                                TelegramSettings.accounts(table(
                                        Map.of(
                                                "mode",
                                                "webhook",
                                                "webhook_url",
                                                "https://bot.example.com/hook",
                                                "webhook_secret",
                                                "s3cret"),
                                        Map.of())),
                                java.nio.file.Path.of("target"))
                        .ackPolicies())
                .containsExactly(AckPolicy.AFTER_RECEIVE_RECORD);
    }
}

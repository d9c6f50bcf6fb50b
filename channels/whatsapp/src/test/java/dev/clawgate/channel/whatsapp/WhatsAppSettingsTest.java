package dev.clawgate.channel.whatsapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.testkit.whatsapp.FakeWhatsAppCloud;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code [channels.whatsapp]} and {@code doctor} (SPEC CH-12, OP-4, CH-0). */
class WhatsAppSettingsTest {
    private static ChannelSettings settings(Map<String, String> options) {
        return new ChannelSettings("whatsapp", AccessSettings.defaults(), Map.of(), options);
    }

    private static Map<String, String> complete(String apiBase, String phoneNumberId) {
        Map<String, String> o = new HashMap<>(Map.of(
                "access_token",
                WhatsAppFixture.TOKEN,
                "phone_number_id",
                phoneNumberId,
                "app_secret",
                WhatsAppFixture.SECRET,
                "verify_token",
                WhatsAppFixture.VERIFY));
        if (apiBase != null) o.put("api_base", apiBase);
        return o;
    }

    @Test
    void theKeysAreDeclaredWithTheirDefaultsAndSecretsMarked() {
        // SPEC CH-12: the channel's own keys; the access keys are every channel's
        var options = new WhatsAppChannelFactory().options();
        assertThat(options)
                .extracting(ChannelOption::key)
                .containsExactly(
                        "access_token",
                        "phone_number_id",
                        "app_secret",
                        "verify_token",
                        "api_base",
                        "webhook_path",
                        "text_limit",
                        "ack_reactions");
        assertThat(options)
                .filteredOn(ChannelOption::secret)
                .extracting(ChannelOption::key)
                .containsExactly("access_token", "app_secret", "verify_token");
        assertThat(options)
                .filteredOn(o -> o.key().equals("api_base"))
                .singleElement()
                .satisfies(o -> assertThat(o.defaultValue()).isEqualTo("https://graph.facebook.com/v21.0"));
        WhatsAppAccount a = WhatsAppSettings.account(settings(complete(null, "106540352242922")));
        assertThat(a.webhookPath()).isEqualTo("/webhooks/whatsapp");
        assertThat(a.textLimit()).isEqualTo(4096);
        assertThat(a.toString()).doesNotContain(WhatsAppFixture.TOKEN, WhatsAppFixture.SECRET);
    }

    @Test
    void badValuesNameTheirKeyAndNeverRepeatASecret() {
        // SPEC OP-4, OP-6
        Map<String, String> o = complete(null, "106540352242922");
        o.put("text_limit", "5000");
        assertThatThrownBy(() -> new WhatsAppChannelFactory().check(settings(o)))
                .hasMessageStartingWith("channels.whatsapp.text_limit");
        assertThatThrownBy(() -> WhatsAppSettings.account(settings(complete(null, "+1 555 0100"))))
                .hasMessageStartingWith("channels.whatsapp.phone_number_id");
        Map<String, String> noSecret = complete(null, "1");
        noSecret.remove("app_secret");
        assertThatThrownBy(() -> WhatsAppSettings.account(settings(noSecret)))
                .hasMessageStartingWith("channels.whatsapp.app_secret is missing")
                .hasMessageNotContaining(WhatsAppFixture.TOKEN);
        new WhatsAppChannelFactory().check(settings(Map.of()));
    }

    @Test
    void doctorReadsThePhoneNumberAndTellsARefusedTokenFromAWrongId() {
        // SPEC OP-4, CH-0: GET /{phone_number_id} with the token
        try (FakeWhatsAppCloud wa = WhatsAppFixture.fake()) {
            ChannelProbe ok = new WhatsAppChannelFactory().probe(settings(complete(wa.apiBase(), wa.phoneNumberId())));
            assertThat(ok.ok()).isTrue();
            assertThat(ok.findings().getFirst().what()).contains(wa.displayPhoneNumber());
            assertThat(wa.calls()).anyMatch(c -> c.method().equals("phone_number"));
            ChannelProbe wrongId = new WhatsAppChannelFactory().probe(settings(complete(wa.apiBase(), "42")));
            assertThat(wrongId.ok()).isFalse();
            assertThat(wrongId.findings().getFirst().fix()).contains("phone_number_id");
            Map<String, String> badToken = complete(wa.apiBase(), wa.phoneNumberId());
            badToken.put("access_token", "EAAwrong");
            ChannelProbe refused = new WhatsAppChannelFactory().probe(settings(badToken));
            assertThat(refused.findings().getFirst().fix()).contains("access_token");
            assertThat(refused.findings().toString()).doesNotContain("EAAwrong");
        }
    }
}

package dev.clawgate.channel.qq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.testkit.qq.FakeQq;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code clawgate doctor} on QQ (SPEC OP-4, CH-0, CH-13): a token and the OpenAPI, never the secret shown. */
class QqProbeTest {
    private static ChannelSettings settings(FakeQq qq, String secret) {
        return new ChannelSettings(
                "qq",
                AccessSettings.defaults(),
                Map.of(),
                Map.of(
                        "app_id",
                        QqFixture.APP_ID,
                        "client_secret",
                        secret,
                        "api_base",
                        qq.apiBase(),
                        "token_url",
                        qq.tokenUrl()));
    }

    @Test
    void theRightSecretGetsATokenTheOpenApiTakes() {
        // SPEC OP-4: getAppAccessToken, then GET /gateway with the token
        try (FakeQq qq = FakeQq.start(QqFixture.APP_ID, QqFixture.SECRET)) {
            ChannelProbe p = new QqChannelFactory().probe(settings(qq, QqFixture.SECRET));
            assertThat(p.ok()).isTrue();
            assertThat(qq.calls()).extracting(c -> c.method()).containsExactly("getAppAccessToken", "GET /gateway");
        }
    }

    @Test
    void aWrongSecretIsAProblemWithTheFixAndNoSecret() {
        // SPEC OP-4, OP-6: 100016 from the token endpoint names the keys to check, never their values
        try (FakeQq qq = FakeQq.start(QqFixture.APP_ID, QqFixture.SECRET)) {
            ChannelProbe p = new QqChannelFactory().probe(settings(qq, "wrong-secret-value"));
            assertThat(p.ok()).isFalse();
            assertThat(p.findings().getFirst().what()).contains("100016").doesNotContain("wrong-secret-value");
            assertThat(p.findings().getFirst().fix()).contains("client_secret");
        }
    }
}

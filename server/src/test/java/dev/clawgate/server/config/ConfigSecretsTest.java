package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.ProviderSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ${VAR} references and secrets (SPEC OP-6). */
class ConfigSecretsTest extends ConfigFileCase {
    private static final String SECRET = "sk-very-secret-0123456789";

    @Test
    void aReferenceReadsTheEnvironmentAnywhereInAString() {
        // SPEC OP-6
        ClawgateConfig config =
                fixture.load("""
                [gateway]
                bind = "${HOST}:${PORT}"
                auth_token = "${TOKEN}"
                [agent]
                provider = "main"
                fallback = ["${BACKUP}"]
                [providers.main]
                base_url = "http://${HOST}:11434/v1"
                [providers.backup]
                """, Map.of("HOST", "127.0.0.1", "PORT", "9999", "TOKEN", SECRET, "BACKUP", "backup"));

        assertThat(config.gateway().bind()).isEqualTo("127.0.0.1:9999");
        assertThat(config.gateway().authToken()).isEqualTo(SECRET);
        assertThat(config.providers().get("main").baseUrl()).isEqualTo("http://127.0.0.1:11434/v1");
        assertThat(config.agent().fallback()).containsExactly("backup");
    }

    @Test
    void aDoubledDollarKeepsALiteralReference() {
        // SPEC OP-6
        ClawgateConfig config =
                fixture.load("[tools]\nshell_allowlist = [\"$${HOME}\", \"a$b\", \"$\"]\n", Map.of("HOME", "/root"));
        assertThat(config.tools().shellAllowlist()).containsExactly("${HOME}", "a$b", "$");
    }

    @Test
    void anUnsetVariableIsAnErrorNamingTheKeyAndTheVariable() {
        // SPEC OP-6
        assertThat(fixture.error("[gateway]\nauth_token = \"Bearer ${CLAWGATE_TOKEN}\"\n"))
                .isEqualTo("'gateway.auth_token' in " + dir.resolve("clawgate.toml")
                        + " refers to ${CLAWGATE_TOKEN}, which is not set; set CLAWGATE_TOKEN in the "
                        + "environment or change the value");
        assertThat(fixture.error("[[routes]]\nhint = \"a\"\nkeywords = [\"a\", \"${WORD}\"]\n"))
                .contains("'routes[0].keywords[1]'", "${WORD}");
        // every other secret: the channels' tokens and secrets are errors too, never a channel without its secret
        assertThat(fixture.error("[channels.telegram]\nbot_token = \"${TG_TOKEN}\"\n"))
                .contains("'channels.telegram.bot_token'", "${TG_TOKEN}", "which is not set");
        assertThat(fixture.error("[channels.telegram]\nbot_token = \"1:a\"\nmode = \"webhook\"\n"
                        + "webhook_secret = \"${TG_SECRET}\"\n"))
                .contains("'channels.telegram.webhook_secret'", "${TG_SECRET}");
        assertThat(fixture.error("[channels.webhook]\nsecret = \"${HOOK_SECRET}\"\n"))
                .contains("'channels.webhook.secret'", "${HOOK_SECRET}");
    }

    @Test
    void aMalformedReferenceIsAnErrorThatDoesNotQuoteTheValue() {
        // SPEC OP-6
        assertThat(fixture.error("[gateway]\nauth_token = \"" + SECRET + "${OOPS\"\n"))
                .contains("'gateway.auth_token'", "has an unterminated ${ (write $${ for a literal ${)")
                .doesNotContain(SECRET);
        assertThat(fixture.error("[gateway]\nauth_token = \"${" + SECRET + "}\"\n"))
                .contains("is not a variable name")
                .doesNotContain(SECRET);
    }

    @Test
    void anUnsetApiKeyVariableLeavesThatProviderUnconfiguredAndSaysSoOnce() {
        // SPEC OP-6
        try (CapturedLogs logs = new CapturedLogs()) {
            ClawgateConfig config = fixture.load("""
                    [agent]
                    provider = "openai"
                    [providers.openai]
                    api_key = "${OPENAI_API_KEY}"
                    [providers.local]
                    api_key = "${LOCAL_KEY}"
                    """, Map.of("LOCAL_KEY", SECRET));

            ProviderSettings openai = config.providers().get("openai");
            assertThat(openai.apiKey()).isNull();
            assertThat(openai.kind()).isEqualTo("openai");
            assertThat(openai.unconfigured())
                    .isEqualTo("providers.openai.api_key refers to ${OPENAI_API_KEY}, which is" + " not set");
            assertThat(config.providers().get("local").apiKey()).isEqualTo(SECRET);
            assertThat(config.providers().get("local").unconfigured()).isNull();
            assertThat(logs.lines())
                    .singleElement()
                    .asString()
                    .startsWith("INFO provider 'openai' is not configured: providers.openai.api_key refers to"
                            + " ${OPENAI_API_KEY}, which is not set in ");
        }
    }

    @Test
    void anEmptyApiKeyAlsoLeavesTheProviderUnconfigured() {
        // SPEC OP-6
        ClawgateConfig config = fixture.load("[providers.openai]\napi_key = \"${KEY}\"\n", Map.of("KEY", ""));
        assertThat(config.providers().get("openai").apiKey()).isNull();
        assertThat(config.providers().get("openai").unconfigured()).contains("empty");
    }

    @Test
    void anUnsetApiKeyVariableLeavesEvenALocalServerUnconfigured() {
        // SPEC OP-6, README ("an unset ${VAR} in api_key leaves that provider unconfigured"): before the fix a provider
        // whose base_url was not a hosted API stayed in use, with no key
        ClawgateConfig config = fixture.load("""
                [agent]
                provider = "keyless"
                [providers.local]
                base_url = "http://127.0.0.1:11434/v1"
                api_key = "${LOCAL_KEY}"
                model = "m"
                [providers.keyless]
                base_url = "http://127.0.0.1:11434/v1"
                model = "m"
                """);
        var built = new dev.clawgate.server.ConfiguredProviders(config.providers());
        assertThat(built.find("local")).isEmpty();
        assertThat(built.names()).containsExactly("keyless");
    }

    @Test
    void secretsNeverAppearInLogsOrErrors() {
        // SPEC OP-6, IN-5, DI-3, IN-4
        Map<String, String> env = Map.of("KEY", SECRET, "TOKEN", SECRET);
        try (CapturedLogs logs = new CapturedLogs()) {
            fixture.load("""
                    [gateway]
                    auth_token = "${TOKEN}"
                    [providers.openai]
                    api_key = "${KEY}"
                    [messages.queue]
                    mode = "queue"
                    """, env);
            List<String> errors = List.of(
                    fixture.error("[gateway]\nauth_token = \"${TOKEN}\"\nbind = 1\n", env),
                    fixture.error("[providers.openai]\napi_key = \"${KEY}\"\nbase_url = \"${KEY}\"\n", env),
                    fixture.error("[providers.openai]\napi_key = \"${KEY}\"\nkind = \"x\"\n", env),
                    fixture.error(
                            "[providers.openai]\napi_key = \"" + SECRET + "\"\napi_kye = \"" + SECRET + "\"\n", env),
                    fixture.error("[channels.telegram]\ndm_policy = \"${TOKEN}\"\n", env),
                    fixture.error("[messages.queue.by_channel]\ntelegram = \"x${KEY}\"\n", env),
                    fixture.error("[inbox]\nmax_age = \"${KEY}\"\n", env));

            assertThat(logs.lines())
                    .isNotEmpty()
                    .allSatisfy(line -> assertThat(line).doesNotContain(SECRET));
            assertThat(errors).allSatisfy(message -> assertThat(message).doesNotContain(SECRET));
            assertThat(errors.get(4))
                    .isEqualTo("'channels.telegram.dm_policy' in " + dir.resolve("clawgate.toml")
                            + " expands to a value that is not a DM policy; use one of open, allowlist, "
                            + "pairing, disabled");
        }
    }
}

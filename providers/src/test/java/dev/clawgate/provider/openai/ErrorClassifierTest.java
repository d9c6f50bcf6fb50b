package dev.clawgate.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.provider.ProviderException.Kind;
import dev.clawgate.provider.internal.SecretRedactor;
import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Error classification and redaction details (SPEC HI-5, HI-6). */
class ErrorClassifierTest {
    private static final Instant NOW = Instant.parse("2030-05-01T10:00:00Z");
    private final ErrorClassifier classifier =
            new ErrorClassifier("p", new SecretRedactor("my-very-secret-key"), Clock.fixed(NOW, ZoneOffset.UTC));

    private static HttpHeaders headers(Map<String, String> h) {
        return HttpHeaders.of(
                h.entrySet().stream()
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue()))),
                (a, b) -> true);
    }

    @Test
    void retryAfterComesFromMillisecondsSecondsDatesOrTheMessage() {
        // SPEC SP-4
        assertThat(classifier.retryAfter(headers(Map.of("retry-after-ms", "250.4")), ""))
                .isEqualTo(Duration.ofMillis(250));
        assertThat(classifier.retryAfter(headers(Map.of("retry-after", "2")), ""))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(classifier.retryAfter(headers(Map.of("retry-after", "Wed, 01 May 2030 10:01:00 GMT")), ""))
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(classifier.retryAfter(headers(Map.of("retry-after", "Wed, 01 May 2030 09:00:00 GMT")), ""))
                .isEqualTo(Duration.ZERO);
        assertThat(classifier.retryAfter(headers(Map.of()), "Please try again in 20s."))
                .isEqualTo(Duration.ofSeconds(20));
        assertThat(classifier.retryAfter(headers(Map.of()), "Please try again in 6ms."))
                .isEqualTo(Duration.ofMillis(6));
        assertThat(classifier.retryAfter(headers(Map.of()), "try again in 1m30s"))
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(classifier.retryAfter(headers(Map.of()), "Please retry after 5 seconds"))
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(classifier.retryAfter(headers(Map.of("retry-after", "soon")), "no hint"))
                .isNull();
    }

    @Test
    void bodiesOfEveryCommonShapeYieldTheirMessage() {
        // SPEC HI-6
        assertThat(ErrorClassifier.parse("{\"error\":{\"message\":\"m1\",\"code\":\"c\",\"type\":\"t\"}}"))
                .isEqualTo(new ErrorClassifier.ApiError("m1", "c", "t"));
        assertThat(ErrorClassifier.parse("{\"error\":\"model 'x' not found\"}").message())
                .isEqualTo("model 'x' not found");
        assertThat(ErrorClassifier.parse("{\"detail\":\"bad\"}").message()).isEqualTo("bad");
        assertThat(ErrorClassifier.parse("upstream timeout\nmore").message()).isEqualTo("upstream timeout");
        assertThat(ErrorClassifier.parse("<html>502</html>").message()).isEmpty();
        assertThat(ErrorClassifier.parse("").message()).isEmpty();
    }

    @Test
    void overflowIsFoundByCodeEvenWhenTheMessageIsVague() {
        // SPEC HI-5
        var e = classifier.fromHttp(
                400,
                headers(Map.of()),
                "{\"error\":{\"message\":\"bad request\",\"code\":\"context_length_exceeded\"}}");
        assertThat(e.kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Your input exceeds the context window of this model.",
                "request (8968 tokens) exceeds the available context size (8448 tokens), try increasing it",
                "too many tokens in the request",
                "prompt is too long: 210000 tokens > 200000 maximum",
                "the context window has overflowed"
            })
    void everyOverflowWordingOfTheSpecIsOverflowWhateverTheStatus(String wording) throws Exception {
        // SPEC HI-5: the shared detector decides, for 400s and for servers that answer 500
        String body = new ObjectMapper()
                .createObjectNode()
                .set("error", new ObjectMapper().createObjectNode().put("message", wording))
                .toString();
        assertThat(classifier.fromHttp(400, headers(Map.of()), body).kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
        assertThat(classifier.fromHttp(500, headers(Map.of()), body).kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
    }

    @Test
    void statusDecidesBeforeWordingForAuthAndRateLimits() {
        // SPEC HI-6
        assertThat(classifier
                        .fromHttp(401, headers(Map.of()), "{\"error\":{\"message\":\"maximum context length\"}}")
                        .kind())
                .isEqualTo(Kind.AUTH);
        assertThat(classifier.fromHttp(429, headers(Map.of()), "").kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(classifier.fromHttp(408, headers(Map.of()), "").kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(classifier
                        .fromHttp(422, headers(Map.of()), "{\"error\":\"bad\"}")
                        .kind())
                .isEqualTo(Kind.FATAL);
        assertThat(classifier
                        .fromHttp(500, headers(Map.of()), "{\"error\":\"model does not support images\"}")
                        .kind())
                .isEqualTo(Kind.VISION_UNSUPPORTED);
    }

    @Test
    void inStreamErrorsUseANumericCodeAsStatus() throws Exception {
        // SPEC HI-5
        ObjectMapper json = new ObjectMapper();
        assertThat(classifier
                        .fromStreamError(json.readTree("{\"message\":\"slow down\",\"code\":429}"))
                        .kind())
                .isEqualTo(Kind.RATE_LIMITED);
        assertThat(classifier
                        .fromStreamError(json.readTree("{\"message\":\"oops\",\"code\":\"server_error\"}"))
                        .kind())
                .isEqualTo(Kind.TRANSIENT);
    }

    @Test
    void redactionRemovesKeysTokensAndUrlSecrets() {
        // SPEC HI-6
        SecretRedactor r = new SecretRedactor("my-very-secret-key");
        String out = r.redact("key my-very-secret-key, Authorization: Bearer abc.def, sk-proj-ABCDEF123456, "
                + "see https://user:pw@host.example/path?token=t0k3n&x=1 and api_key=zzz999");
        assertThat(out)
                .doesNotContain("my-very-secret-key", "abc.def", "ABCDEF123456", "user:pw", "t0k3n", "zzz999")
                .contains("https://***@host.example/path?***");
        assertThat(r.redact("x".repeat(1000))).hasSizeLessThan(310);
        assertThat(r.redact("line1\n  line2")).isEqualTo("line1 line2");
    }
}

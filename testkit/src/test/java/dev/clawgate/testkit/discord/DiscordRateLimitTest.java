package dev.clawgate.testkit.discord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rate limits as developers/topics/rate-limits describes them (SPEC CH-5): the headers on every answer, per-route
 * buckets per top-level resource, shared buckets, the global limit, and 429s with {@code Retry-After},
 * {@code X-RateLimit-Scope}, {@code retry_after} and {@code global}.
 */
class DiscordRateLimitTest {
    private FakeDiscord discord;
    private DiscordApi api;
    private DiscordChannel general;

    @BeforeEach
    void start() {
        discord = FakeDiscord.start("clawbot");
        api = new DiscordApi(discord);
        general = discord.textChannel(discord.guild("home"), "general");
    }

    @AfterEach
    void stop() {
        discord.close();
    }

    private HttpResponse<String> post(DiscordChannel channel) throws Exception {
        return api.call("POST", "/channels/" + channel.id() + "/messages", "{\"content\":\"x\"}");
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    @Test
    void everyAnswerCarriesItsBucketsHeaders() throws Exception {
        // SPEC CH-5: X-RateLimit-Limit / -Remaining / -Reset / -Reset-After / -Bucket ("Header Format")
        HttpResponse<String> r = post(general);
        assertThat(header(r, "X-RateLimit-Limit")).isEqualTo("5");
        assertThat(header(r, "X-RateLimit-Remaining")).isEqualTo("4");
        assertThat(Double.parseDouble(header(r, "X-RateLimit-Reset-After"))).isBetween(0.0, 5.0);
        assertThat(Double.parseDouble(header(r, "X-RateLimit-Reset")))
                .isGreaterThan(System.currentTimeMillis() / 1000.0);
        assertThat(header(r, "X-RateLimit-Bucket")).matches("[0-9a-f]{32}");
        assertThat(header(post(general), "X-RateLimit-Remaining")).isEqualTo("3");
    }

    @Test
    void anExhaustedBucketAnswers429WithItsRetryAfterAndSendsNothing() throws Exception {
        // SPEC CH-5, OUT-7: "Exceeding A Rate Limit" — user scope, retry_after, global false
        for (int i = 0; i < 5; i++) assertThat(post(general).statusCode()).isEqualTo(200);
        HttpResponse<String> limited = post(general);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(header(limited, "X-RateLimit-Scope")).isEqualTo("user");
        assertThat(header(limited, "X-RateLimit-Remaining")).isEqualTo("0");
        assertThat(Integer.parseInt(header(limited, "Retry-After"))).isBetween(1, 5);
        JsonNode body = DiscordApi.JSON.readTree(limited.body());
        assertThat(body.path("retry_after").asDouble()).isGreaterThan(0.0);
        assertThat(body.path("global").asBoolean()).isFalse();
        assertThat(discord.botMessages(general)).hasSize(5);
        assertThat(post(discord.textChannel(discord.guild("other"), "elsewhere"))
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void aBucketRefillsAfterItsWindow() throws Exception {
        // SPEC CH-5: a client waits for Reset-After instead of collecting 429s
        discord.routeLimit(DiscordRoutes.CREATE_MESSAGE, "messages", 2, Duration.ofMillis(300));
        post(general);
        post(general);
        assertThat(post(general).statusCode()).isEqualTo(429);
        await().atMost(Duration.ofSeconds(5)).until(() -> post(general).statusCode() == 200);
    }

    @Test
    void theReactionRoutesShareOneBucket() throws Exception {
        // SPEC CH-5: "per-route limits will be shared across a set of similar endpoints"
        String id = discord.send(general, discord.user("alice"), "hi");
        String path = "/channels/" + general.id() + "/messages/" + id + "/reactions/"
                + URLEncoder.encode("✅", StandardCharsets.UTF_8) + "/@me";
        discord.routeLimit(DiscordRoutes.CREATE_REACTION, "reactions", 1, Duration.ofSeconds(30));
        discord.routeLimit(DiscordRoutes.DELETE_REACTION, "reactions", 1, Duration.ofSeconds(30));
        HttpResponse<String> put = api.call("PUT", path, null);
        HttpResponse<String> delete = api.call("DELETE", path, null);
        assertThat(put.statusCode()).isEqualTo(204);
        assertThat(delete.statusCode()).isEqualTo(429);
        assertThat(header(delete, "X-RateLimit-Bucket")).isEqualTo(header(put, "X-RateLimit-Bucket"));
    }

    @Test
    void injectedSharedAndGlobalLimitsAreShapedAsDiscordSendsThem() throws Exception {
        // SPEC CH-5: shared-resource and global 429s ("Example Exceeded Resource/Global Rate Limit Response")
        discord.rateLimitNext(DiscordRoutes.CREATE_MESSAGE, RateLimitScope.SHARED, Duration.ofMillis(1500));
        HttpResponse<String> shared = post(general);
        assertThat(shared.statusCode()).isEqualTo(429);
        assertThat(header(shared, "X-RateLimit-Scope")).isEqualTo("shared");
        assertThat(header(shared, "Retry-After")).isEqualTo("2");
        assertThat(DiscordApi.JSON.readTree(shared.body()).path("message").asText())
                .isEqualTo("The resource is being rate limited.");
        discord.rateLimitNext(DiscordRoutes.CREATE_MESSAGE, RateLimitScope.GLOBAL, Duration.ofMillis(500));
        HttpResponse<String> global = post(general);
        assertThat(header(global, "X-RateLimit-Global")).isEqualTo("true");
        assertThat(header(global, "X-RateLimit-Scope")).isEqualTo("global");
        assertThat(DiscordApi.JSON.readTree(global.body()).path("global").asBoolean())
                .isTrue();
        assertThat(discord.botMessages(general)).isEmpty();
        assertThat(discord.calls()).extracting(c -> c.headers().get(":status")).containsExactly("429", "429");
    }

    @Test
    void theGlobalLimitCountsEveryRoute() throws Exception {
        // SPEC CH-5: "All bots can make up to 50 requests per second", independent of per-route limits
        discord.globalRateLimit(3);
        api.call("GET", "/users/@me", null);
        api.call("GET", "/applications/@me", null);
        post(general);
        HttpResponse<String> fourth = api.call("GET", "/gateway/bot", null);
        assertThat(fourth.statusCode()).isEqualTo(429);
        assertThat(header(fourth, "X-RateLimit-Global")).isEqualTo("true");
    }
}

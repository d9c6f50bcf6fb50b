package dev.clawgate.testkit.discord;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Create Message as {@code multipart/form-data} (SPEC CH-5, OUT-13; developers/reference "Uploading Files",
 * developers/resources/message "Create Message"): {@code payload_json} and {@code files[n]}, the message's attachments
 * with ids, names, sizes and CDN urls, and the refusals in Discord's error envelope.
 */
class FakeDiscordUploadTest {
    private static final String BOUNDARY = "b0undary";
    private FakeDiscord discord;
    private DiscordApi api;
    private DiscordChannel general;

    @BeforeEach
    void start() {
        discord = FakeDiscord.start("clawbot");
        discord.routeLimit(DiscordRoutes.CREATE_MESSAGE, "messages", 1000, Duration.ofSeconds(1));
        api = new DiscordApi(discord);
        general = discord.textChannel(discord.guild("home"), "general");
    }

    @AfterEach
    void stop() {
        discord.close();
    }

    private static void part(ByteArrayOutputStream out, String disposition, String type, byte[] content) {
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; " + disposition
                        + (type == null ? "" : "\r\nContent-Type: " + type) + "\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        out.writeBytes(content);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    private HttpResponse<String> post(byte[] form) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(
                        URI.create(discord.apiBase() + "/channels/" + general.id() + "/messages"))
                .header("Authorization", "Bot " + discord.botToken())
                .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(form))
                .build();
        return api.http.send(r, HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] form(String payload, byte[]... files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        part(out, "name=\"payload_json\"", "application/json", payload.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < files.length; i++) {
            part(out, "name=\"files[" + i + "]\"; filename=\"f" + i + ".png\"", "image/png", files[i]);
        }
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    @Test
    void twoFilesAreStoredWithTheirIdsNamesSizesAndUrlsInTheCreatedMessage() throws Exception {
        // SPEC OUT-13, CH-5: attachments [{id, filename}] name the files[n] parts; the nonce is kept as for JSON
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2};
        byte[] gif = {'G', 'I', 'F', '8', '9', 'a'};
        HttpResponse<String> r = post(form(
                "{\"content\":\"two\",\"nonce\":\"n-1\",\"enforce_nonce\":true,"
                        + "\"attachments\":[{\"id\":0,\"filename\":\"chart.png\"},{\"id\":1,\"filename\":\"anim.gif\""
                        + "}]}",
                png,
                gif));
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode m = DiscordApi.JSON.readTree(r.body());
        assertThat(m.path("content").asText()).isEqualTo("two");
        assertThat(m.path("nonce").asText()).isEqualTo("n-1");
        assertThat(m.path("attachments")).hasSize(2);
        assertThat(m.path("attachments").get(0).path("filename").asText()).isEqualTo("chart.png");
        assertThat(m.path("attachments").get(1).path("filename").asText()).isEqualTo("anim.gif");
        assertThat(m.path("attachments").get(1).path("size").asInt()).isEqualTo(6);
        assertThat(m.path("attachments").get(0).path("id").asText()).matches("\\d{17,20}");
        assertThat(m.path("attachments").get(0).path("url").asText())
                .startsWith("http://127.0.0.1:")
                .contains("/chart.png?ex=");
        String id = m.path("id").asText();
        assertThat(discord.message(id).attachments()).containsExactly("chart.png", "anim.gif");
        assertThat(discord.attachmentBytes(id, 0)).isEqualTo(png);
        // the same nonce again returns the message made, with its files, and makes none
        assertThat(DiscordApi.JSON
                        .readTree(post(form(
                                        "{\"content\":\"two\",\"nonce\":\"n-1\","
                                                + "\"enforce_nonce\":true,\"attachments\":[{\"id\":0,\"filename\":\"x"
                                                + ".png\"}]}",
                                        png))
                                .body())
                        .path("id")
                        .asText())
                .isEqualTo(id);
        assertThat(discord.botMessages(general)).hasSize(1);
    }

    @Test
    void aFileOverTheUploadLimitIsRequestEntityTooLargeAndCreatesNothing() throws Exception {
        // SPEC OUT-7, CH-5: 413 with JSON code 40005, a permanent refusal
        discord.uploadLimit(16);
        HttpResponse<String> r =
                post(form("{\"content\":\"big\",\"attachments\":[{\"id\":0,\"filename\":\"a.png\"}]}", new byte[17]));
        assertThat(r.statusCode()).isEqualTo(413);
        JsonNode e = DiscordApi.JSON.readTree(r.body());
        assertThat(e.path("code").asInt()).isEqualTo(40005);
        assertThat(e.path("message").asText()).isEqualTo("Request entity too large");
        assertThat(discord.botMessages(general)).isEmpty();
        assertThat(post(form(
                                "{\"content\":\"fits\",\"attachments\":[{\"id\":0,\"filename\":\"a.png\"}]}",
                                new byte[16]))
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void badMultipartIsRefusedInDiscordsErrorEnvelope() throws Exception {
        // SPEC CH-5: unreadable payload_json, an unclosed body, a file part without a filename, an attachment entry
        // naming no uploaded part: each a 400 with Discord's {message, code}, nothing created
        HttpResponse<String> badJson = post(form("{not json", new byte[] {1}));
        assertThat(badJson.statusCode()).isEqualTo(400);
        assertThat(DiscordApi.JSON.readTree(badJson.body()).path("code").asInt())
                .isEqualTo(50109);
        byte[] unclosed = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{}")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(DiscordApi.JSON.readTree(post(unclosed).body()).path("code").asInt())
                .isEqualTo(50109);
        ByteArrayOutputStream noName = new ByteArrayOutputStream();
        part(noName, "name=\"payload_json\"", null, "{\"content\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        part(noName, "name=\"files[0]\"", "image/png", new byte[] {1});
        noName.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        JsonNode e = DiscordApi.JSON.readTree(post(noName.toByteArray()).body());
        assertThat(e.path("code").asInt()).isEqualTo(50035);
        assertThat(e.path("errors").has("files[0]")).isTrue();
        JsonNode orphan = DiscordApi.JSON.readTree(post(form(
                        "{\"content\":\"x\"," + "\"attachments\":[{\"id\":3,\"filename\":\"gone.png\"}]}",
                        new byte[] {1}))
                .body());
        assertThat(orphan.path("code").asInt()).isEqualTo(50035);
        assertThat(orphan.path("errors")
                        .path("attachments")
                        .path("_errors")
                        .get(0)
                        .path("code")
                        .asText())
                .isEqualTo("ATTACHMENT_NOT_FOUND");
        assertThat(discord.botMessages(general)).isEmpty();
    }
}

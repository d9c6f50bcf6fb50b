package dev.clawgate.testkit.slack;

import static dev.clawgate.testkit.slack.SlackApi.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Files as Slack's reference describes them (SPEC CH-4, OUT-13): the external upload flow (files.getUploadURLExternal,
 * the upload URL, files.completeUploadExternal), files.info, and private URLs that serve the bytes only with the bot
 * token (messaging/working-with-files).
 */
class FakeSlackFilesTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 1, 2, 3};
    private FakeSlack slack;
    private SlackApi api;
    private SlackChannel general;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        api = new SlackApi(slack);
        general = slack.channel("general");
    }

    @AfterEach
    void stop() {
        slack.close();
    }

    private HttpResponse<byte[]> get(String url, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
        if (token != null) b.header("Authorization", "Bearer " + token);
        return api.http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private JsonNode uploadUrl(String name, int length) throws Exception {
        return api.form(
                "files.getUploadURLExternal",
                slack.botToken(),
                args("filename", name, "length", Integer.toString(length)));
    }

    @Test
    void theExternalUploadFlowSharesTheImageInTheChannelAndThread() throws Exception {
        // SPEC CH-4, OUT-13: images are uploaded with the external upload flow
        String root = slack.post(general, slack.user("alice"), "draw me a chart");
        JsonNode grant = uploadUrl("chart.png", PNG.length);
        String fileId = grant.path("file_id").asText();
        assertThat(fileId).startsWith("F");
        HttpResponse<String> upload = api.http.send(
                HttpRequest.newBuilder(URI.create(grant.path("upload_url").asText()))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(PNG))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(upload.statusCode()).isEqualTo(200);
        JsonNode done = api.bot(
                "files.completeUploadExternal",
                "{\"files\":[{\"id\":\"" + fileId
                        + "\",\"title\":\"Chart\"}],"
                        + "\"channel_id\":\"" + general.id() + "\",\"initial_comment\":\"here\",\"thread_ts\":\"" + root
                        + "\"}");
        assertThat(done.path("ok").asBoolean()).isTrue();
        assertThat(done.path("files").get(0).path("title").asText()).isEqualTo("Chart");
        SlackMessage shared = slack.botMessages(general).getFirst();
        assertThat(shared.fileIds()).containsExactly(fileId);
        assertThat(shared.text()).isEqualTo("here");
        assertThat(shared.threadTs()).isEqualTo(root);
        JsonNode info =
                api.form("files.info", slack.botToken(), args("file", fileId)).path("file");
        assertThat(info.path("size").asInt()).isEqualTo(PNG.length);
        assertThat(info.path("mimetype").asText()).isEqualTo("image/png");
        assertThat(get(info.path("url_private").asText(), slack.botToken()).body())
                .isEqualTo(PNG);
    }

    @Test
    void theUploadUrlTakesAMultipartFormToo() throws Exception {
        // SPEC CH-4: "Files can be sent as raw bytes or can be multipart form encoded"
        JsonNode grant = uploadUrl("a.txt", 5);
        String boundary = "b0undary";
        String form = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"filename\"; filename=\"a.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nhello\r\n--" + boundary + "--\r\n";
        HttpResponse<String> r = api.http.send(
                HttpRequest.newBuilder(URI.create(grant.path("upload_url").asText()))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        String id = grant.path("file_id").asText();
        assertThat(api.bot("files.completeUploadExternal", "{\"files\":[{\"id\":\"" + id + "\"}]}")
                        .path("ok")
                        .asBoolean())
                .isTrue();
        String url = api.form("files.info", slack.botToken(), args("file", id))
                .path("file")
                .path("url_private")
                .asText();
        assertThat(new String(get(url, slack.botToken()).body(), StandardCharsets.UTF_8))
                .isEqualTo("hello");
    }

    @Test
    void aFlowCutShortIsRefused() throws Exception {
        // SPEC CH-4: completing a file never uploaded, a reused upload URL, a missing length
        JsonNode grant = uploadUrl("x.png", 3);
        assertThat(api.bot(
                                "files.completeUploadExternal",
                                "{\"files\":[{\"id\":\"" + grant.path("file_id").asText() + "\"}]}")
                        .path("error")
                        .asText())
                .isEqualTo("file_not_found");
        URI url = URI.create(grant.path("upload_url").asText());
        byte[] three = {1, 2, 3};
        HttpRequest put = HttpRequest.newBuilder(url)
                .POST(HttpRequest.BodyPublishers.ofByteArray(three))
                .build();
        assertThat(api.http.send(put, HttpResponse.BodyHandlers.discarding()).statusCode())
                .isEqualTo(200);
        assertThat(api.http.send(put, HttpResponse.BodyHandlers.discarding()).statusCode())
                .isEqualTo(404);
        JsonNode noLength = api.form("files.getUploadURLExternal", slack.botToken(), args("filename", "y.png"));
        assertThat(noLength.path("error").asText()).isEqualTo("invalid_arguments");
        assertThat(noLength.path("response_metadata").path("messages").get(0).asText())
                .contains("length");
    }

    @Test
    void aPersonsFileNeedsTheBotTokenToDownload() throws Exception {
        // SPEC CH-4, OUT-13: files are downloaded with the bot token; without it Slack serves no file
        String ts = slack.postFile(general, slack.user("alice"), "photo.png", "image/png", PNG, "look");
        JsonNode event = slack.events().getFirst().path("event");
        assertThat(event.path("subtype").asText()).isEqualTo("file_share");
        assertThat(event.path("ts").asText()).isEqualTo(ts);
        String url = event.path("files").get(0).path("url_private_download").asText();
        assertThat(get(url, slack.botToken()).body()).isEqualTo(PNG);
        HttpResponse<byte[]> anonymous = get(url, null);
        assertThat(anonymous.statusCode()).isEqualTo(302);
        assertThat(anonymous.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).startsWith("/signin"));
        assertThat(slack.calls()).extracting(c -> c.headers().get(":token")).containsExactly("bot", "none");
    }
}

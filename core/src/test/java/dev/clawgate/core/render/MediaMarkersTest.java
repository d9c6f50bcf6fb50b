package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.internal.render.MediaItem;
import dev.clawgate.core.internal.render.MediaReply;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// SPEC OUT-13
class MediaMarkersTest {
    @TempDir
    Path root;

    Path workspace;
    Path dataDir;
    Path outside;

    @BeforeEach
    void files() throws IOException {
        workspace = Files.createDirectories(root.resolve("workspace"));
        dataDir = Files.createDirectories(root.resolve("data"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(workspace.resolve("chart.png"), "png");
        Files.createDirectories(workspace.resolve("out"));
        Files.writeString(workspace.resolve("out/report.pdf"), "pdf");
        Files.createDirectories(dataDir.resolve("media"));
        Files.writeString(dataDir.resolve("media/voice.ogg"), "ogg");
        Files.writeString(outside.resolve("secret.txt"), "secret");
    }

    // SPEC OUT-13: markers become media and leave the text
    @Test
    void markersBecomeMediaItemsAndLeaveTheText() throws IOException {
        MediaReply reply = MediaMarkers.extract(
                "Here is the chart:\n[IMAGE:chart.png]\n\nAnd the report [DOCUMENT:out/report.pdf] as asked.",
                workspace,
                dataDir);
        assertThat(reply.text()).isEqualTo("Here is the chart:\n\nAnd the report as asked.");
        assertThat(reply.media())
                .containsExactly(
                        MediaItem.file(
                                MediaKind.IMAGE, workspace.resolve("chart.png").toRealPath()),
                        MediaItem.file(
                                MediaKind.DOCUMENT,
                                workspace.resolve("out/report.pdf").toRealPath()));
        assertThat(reply.rejected()).isEmpty();
    }

    // SPEC OUT-13: the data dir is allowed too, by absolute path
    @Test
    void fileInTheDataDirIsAccepted() throws IOException {
        Path voice = dataDir.resolve("media/voice.ogg");
        MediaReply reply = MediaMarkers.extract(
                "[AUDIO:" + voice + "] [video:" + workspace.resolve("chart.png") + "]", workspace, dataDir);
        assertThat(reply.media()).extracting(MediaItem::kind).containsExactly(MediaKind.AUDIO, MediaKind.VIDEO);
        assertThat(reply.media().getFirst().path()).isEqualTo(voice.toRealPath());
        assertThat(reply.text()).isEmpty();
    }

    // SPEC OUT-13 with AG-5's rules: no ".." escape
    @Test
    void dotDotEscapeIsRejected() {
        MediaReply reply = MediaMarkers.extract("look [IMAGE:../outside/secret.txt]", workspace, dataDir);
        assertThat(reply.media()).isEmpty();
        assertThat(reply.rejected()).singleElement().satisfies(r -> {
            assertThat(r.marker()).isEqualTo("[IMAGE:../outside/secret.txt]");
            assertThat(r.reason()).contains("..");
        });
        assertThat(reply.text()).isEqualTo("look");
    }

    // SPEC OUT-13 with AG-5's rules: an absolute path elsewhere is rejected
    @Test
    void absolutePathOutsideBothDirsIsRejected() {
        MediaReply reply = MediaMarkers.extract("[DOCUMENT:" + outside.resolve("secret.txt") + "]", workspace, null);
        assertThat(reply.media()).isEmpty();
        assertThat(reply.rejected())
                .singleElement()
                .extracting(MediaReply.Rejected::reason)
                .asString()
                .contains("outside the workspace");
        MediaReply withData =
                MediaMarkers.extract("[DOCUMENT:" + outside.resolve("secret.txt") + "]", workspace, dataDir);
        assertThat(withData.rejected())
                .singleElement()
                .extracting(MediaReply.Rejected::reason)
                .asString()
                .contains("data dir");
    }

    // SPEC OUT-13 with AG-5's rules: no symbolic link out of the workspace
    @Test
    void symlinkEscapeIsRejected() throws IOException {
        Files.createSymbolicLink(workspace.resolve("innocent.png"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(workspace.resolve("linkdir"), outside);
        MediaReply reply = MediaMarkers.extract("[IMAGE:innocent.png]\n[IMAGE:linkdir/secret.txt]", workspace, dataDir);
        assertThat(reply.media()).isEmpty();
        assertThat(reply.rejected())
                .hasSize(2)
                .allSatisfy(r -> assertThat(r.reason()).contains("symbolic link"));
    }

    // SPEC OUT-13: a link that stays inside is followed to the real file
    @Test
    void symlinkInsideTheWorkspaceResolvesToItsTarget() throws IOException {
        Files.createSymbolicLink(workspace.resolve("latest.png"), workspace.resolve("chart.png"));
        MediaReply reply = MediaMarkers.extract("[IMAGE:latest.png]", workspace, dataDir);
        assertThat(reply.media())
                .singleElement()
                .extracting(MediaItem::path)
                .isEqualTo(workspace.resolve("chart.png").toRealPath());
    }

    // SPEC OUT-13
    @Test
    void missingFileOrEmptyMarkerIsRejected() {
        MediaReply reply = MediaMarkers.extract("[IMAGE:nope.png][IMAGE: ]", workspace, dataDir);
        assertThat(reply.rejected())
                .extracting(MediaReply.Rejected::reason)
                .containsExactly("no such file: nope.png", "the marker names no file");
        assertThat(reply.text()).isEmpty();
    }

    // SPEC OUT-13: URLs are kept as URLs (fetching is decided elsewhere, AG-4)
    @Test
    void httpUrlsAreKeptAndOtherSchemesRejected() {
        MediaReply reply = MediaMarkers.extract(
                "[IMAGE:https://example.com/img/cat.jpg] [AUDIO:ftp://example.com/a.mp3]"
                        + " [IMAGE:http://exa mple.com/x] [IMAGE:http:///nohost]",
                workspace,
                dataDir);
        assertThat(reply.media())
                .containsExactly(MediaItem.remote(MediaKind.IMAGE, URI.create("https://example.com/img/cat.jpg")));
        assertThat(reply.rejected())
                .extracting(MediaReply.Rejected::reason)
                .containsExactly(
                        "unsupported URL scheme: ftp",
                        "malformed URL: http://exa mple.com/x",
                        "URL has no host: http:///nohost");
    }

    // SPEC OUT-13: inside a code block a marker is just text
    @Test
    void markersInsideCodeFencesAreLeftAlone() {
        String text = "Use it like this:\n```\n[IMAGE:chart.png]\n```\n[IMAGE:chart.png]";
        MediaReply reply = MediaMarkers.extract(text, workspace, dataDir);
        assertThat(reply.text()).isEqualTo("Use it like this:\n```\n[IMAGE:chart.png]\n```");
        assertThat(reply.media()).hasSize(1);
    }

    // SPEC OUT-13
    @Test
    void replyWithoutMarkersIsUnchanged() {
        assertThat(MediaMarkers.extract("  plain [link](x)  ", workspace, dataDir)
                        .text())
                .isEqualTo("  plain [link](x)  ");
        assertThat(MediaMarkers.extract(null, workspace, dataDir).text()).isEmpty();
        assertThat(MediaMarkers.extract("", workspace, dataDir).media()).isEmpty();
    }

    // SPEC OUT-13: a channel without media gets the text plus a short note
    @Test
    void channelWithoutMediaGetsNotes() {
        MediaReply reply = MediaMarkers.extract(
                "Done.\n[IMAGE:chart.png]\n[DOCUMENT:https://example.com/files/q3.pdf]", workspace, dataDir);
        assertThat(reply.textWithoutMedia())
                .isEqualTo("Done.\n\n[image omitted: chart.png]\n[document omitted: q3.pdf]");
        assertThat(MediaMarkers.extract("[IMAGE:https://example.com/]", workspace, dataDir)
                        .textWithoutMedia())
                .isEqualTo("[image omitted: example.com]");
        assertThat(MediaMarkers.extract("no media", workspace, dataDir).textWithoutMedia())
                .isEqualTo("no media");
    }

    // SPEC OUT-13
    @Test
    void mediaItemHasExactlyOneLocation() {
        assertThatThrownBy(() -> new MediaItem(MediaKind.IMAGE, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MediaItem(MediaKind.IMAGE, Path.of("a"), URI.create("https://x/a")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(MediaItem.remote(MediaKind.VIDEO, URI.create("https://x.org/v/clip.mp4/"))
                        .displayName())
                .isEqualTo("clip.mp4");
        assertThat(MediaItem.file(MediaKind.IMAGE, Path.of("/")).displayName()).isEqualTo("/");
        assertThat(MediaItem.file(MediaKind.IMAGE, Path.of("a.png")).isRemote()).isFalse();
    }
}

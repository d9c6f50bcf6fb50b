package dev.clawgate.core.internal.multimodal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatMessage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// SPEC AG-4: markers become data URIs for vision providers, with limits; remote fetch off by default, never private
// addresses
class ImageInlinerTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};

    @TempDir
    Path workspace;

    @TempDir
    Path elsewhere;

    private ImageInliner inliner(int max, long bytes) {
        return new ImageInliner(List.of(workspace), max, bytes, ImageInliner.RemoteImages.refuseAll());
    }

    private Path png(Path dir, String name) throws IOException {
        return Files.write(dir.resolve(name), PNG);
    }

    @Test
    void aWorkspaceImageBecomesABase64DataUri() throws Exception {
        Path p = png(workspace, "chart.png");
        List<ChatMessage> out = inliner(5, 1_000).inline(List.of(ChatMessage.user("look [IMAGE:" + p + "] please")));
        assertThat(out.get(0).content())
                .isEqualTo("look [IMAGE:data:image/png;base64,"
                        + Base64.getEncoder().encodeToString(PNG) + "] please");
    }

    @Test
    void anImageOutsideTheWorkspaceOrThroughASymlinkIsNotSent() throws Exception {
        Path outside = png(elsewhere, "secret.png");
        Path link = Files.createSymbolicLink(workspace.resolve("link.png"), outside);
        List<ChatMessage> out =
                inliner(5, 1_000).inline(List.of(ChatMessage.user("[IMAGE:" + outside + "] [IMAGE:" + link + "]")));
        assertThat(out.get(0).content())
                .doesNotContain("base64")
                .contains("[image not available: outside the workspace and the data dir]");
    }

    @Test
    void onlyTheNewestImagesUpToTheLimitAreSentAndTooLargeOnesAreNot() throws Exception {
        Path a = png(workspace, "a.png");
        Path b = png(workspace, "b.png");
        Path c = png(workspace, "c.png");
        List<ChatMessage> out = inliner(2, 1_000)
                .inline(List.of(
                        ChatMessage.user("old [IMAGE:" + a + "]"),
                        ChatMessage.assistant("ok"),
                        ChatMessage.user("new [IMAGE:" + b + "] [IMAGE:" + c + "]")));
        assertThat(out.get(0).content()).contains("[image omitted: more than 2 images]");
        assertThat(out.get(2).content()).contains("base64").doesNotContain("omitted");
        assertThat(inliner(5, 4)
                        .inline(List.of(ChatMessage.user("[IMAGE:" + a + "]")))
                        .get(0)
                        .content())
                .contains("[image not available: larger than 4 bytes]");
    }

    @Test
    void remoteUrlsAreNotFetchedUnlessAllowed() {
        List<ChatMessage> out =
                inliner(5, 1_000).inline(List.of(ChatMessage.user("[IMAGE:https://example.com/cat.png?token=abc]")));
        assertThat(out.get(0).content()).contains("[image not available: remote image fetch is off");
    }

    @Test
    void privateLoopbackAndLinkLocalAddressesAreRefused() throws Exception {
        assertThat(PublicAddresses.allPublic(new InetAddress[] {InetAddress.getByName("93.184.216.34")}))
                .isTrue();
        for (String a : List.of(
                "127.0.0.1",
                "10.1.2.3",
                "192.168.1.10",
                "172.16.0.5",
                "169.254.169.254",
                "::1",
                "fd00::1",
                "100.64.0.1",
                "0.0.0.0")) {
            assertThat(PublicAddresses.allPublic(new InetAddress[] {InetAddress.getByName(a)}))
                    .as(a)
                    .isFalse();
        }
        // one private address among public ones is enough to refuse (DNS rebinding)
        assertThat(PublicAddresses.allPublic(
                        new InetAddress[] {InetAddress.getByName("93.184.216.34"), InetAddress.getByName("127.0.0.1")}))
                .isFalse();
        ScriptedHttp http = new ScriptedHttp();
        PublicImageFetcher fetcher = new PublicImageFetcher(PublicWeb.of(http));
        assertThatThrownBy(() -> fetcher.fetch(URI.create("http://127.0.0.1:9/x.png"), 100))
                .hasMessageContaining("not a public address");
        assertThat(http.calls()).isEmpty();
    }

    @Test
    void anAllowedFetchTakesOnlyAnImageWithinTheLimit() throws Exception {
        String base = "http://images.example";
        ScriptedHttp http = new ScriptedHttp()
                .answer(base + "/cat.png", 200, "image/png", PNG)
                .answer(base + "/page", 200, "text/html", "<html></html>");
        // the resolver stands in for public DNS: the test cannot reach the internet
        PublicImageFetcher fetcher = new PublicImageFetcher(
                new PublicWeb(http, host -> List.of(publicAddress()), PublicAddresses::isPublic),
                Duration.ofSeconds(5));
        assertThat(fetcher.fetch(URI.create(base + "/cat.png"), 100).bytes()).isEqualTo(PNG);
        assertThatThrownBy(() -> fetcher.fetch(URI.create(base + "/cat.png"), 4))
                .hasMessageContaining("larger than 4 bytes");
        assertThatThrownBy(() -> fetcher.fetch(URI.create(base + "/page"), 100)).hasMessageContaining("not an image");
        assertThat(http.calls()).allSatisfy(c -> assertThat(c.addresses()).containsExactly(publicAddress()));
    }

    private static InetAddress publicAddress() {
        try {
            return InetAddress.getByAddress(new byte[] {93, (byte) 184, (byte) 216, 34});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}

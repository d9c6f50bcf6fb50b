package dev.clawgate.core.internal.multimodal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.run.CancelToken;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

// SPEC AG-4, AG-5: a fetch connects only to the addresses that were checked, each hop resolved once and checked
class PublicWebTest {
    private static final InetAddress PUBLIC = address("93.184.216.34");
    private static final InetAddress LOOPBACK = address("127.0.0.1");

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PublicWeb.Page get(PublicWeb web, String url) throws Exception {
        return web.get(URI.create(url), Duration.ofSeconds(5), 1_000, CancelToken.none());
    }

    @Test
    void aNameThatResolvesPublicFirstAndLoopbackAfterIsFetchedFromThePublicAnswerOnly() throws Exception {
        ScriptedHttp http = new ScriptedHttp().answer("http://rebind.example/", 200, "text/plain", "public page");
        AtomicInteger lookups = new AtomicInteger();
        // a rebinding DNS server: the first answer is public, every later one loopback
        PublicWeb web = new PublicWeb(
                http, host -> List.of(lookups.getAndIncrement() == 0 ? PUBLIC : LOOPBACK), PublicAddresses::isPublic);
        PublicWeb.Page page = get(web, "http://rebind.example/");
        assertThat(new String(page.response().body())).isEqualTo("public page");
        assertThat(lookups.get()).isEqualTo(1);
        assertThat(http.calls())
                .singleElement()
                .satisfies(c -> assertThat(c.addresses()).containsExactly(PUBLIC));
    }

    @Test
    void everyRedirectHopIsResolvedAndCheckedAgain() throws Exception {
        ScriptedHttp http = new ScriptedHttp()
                .redirect("http://a.example/", "http://b.example/x")
                .redirect("http://b.example/x", "/y")
                .answer("http://b.example/y", 200, "text/plain", "done");
        List<String> asked = new ArrayList<>();
        PublicWeb web = new PublicWeb(
                http,
                host -> {
                    asked.add(host);
                    return List.of(PUBLIC);
                },
                PublicAddresses::isPublic);
        assertThat(get(web, "http://a.example/").url()).hasToString("http://b.example/y");
        assertThat(asked).containsExactly("a.example", "b.example", "b.example");
        ScriptedHttp loop = new ScriptedHttp().redirect("http://a.example/", "http://a.example/");
        assertThatThrownBy(() -> get(
                        new PublicWeb(loop, host -> List.of(PUBLIC), PublicAddresses::isPublic), "http://a.example/"))
                .hasMessageContaining("more than 3 redirects");
    }

    @Test
    void aNameWithOnePrivateAnswerAmongPublicOnesIsRefusedBeforeAnyConnection() {
        ScriptedHttp http = new ScriptedHttp();
        for (InetAddress bad : List.of(
                LOOPBACK,
                address("10.0.0.1"),
                address("169.254.169.254"),
                address("::ffff:192.168.0.1"),
                address("fd00::1"))) {
            PublicWeb web = new PublicWeb(http, host -> List.of(PUBLIC, bad), PublicAddresses::isPublic);
            assertThatThrownBy(() -> get(web, "https://mixed.example/"))
                    .as(bad.toString())
                    .hasMessageContaining("refused: mixed.example is not a public address");
        }
        assertThatThrownBy(() -> get(
                        new PublicWeb(http, host -> List.of(), PublicAddresses::isPublic), "https://empty.example/"))
                .hasMessageContaining("not a public address");
        assertThat(http.calls()).isEmpty();
    }

    @Test
    void numericHostsInAnyFormButDottedDecimalAreRefusedAsAmbiguous() {
        ScriptedHttp http = new ScriptedHttp();
        PublicWeb web = new PublicWeb(http, host -> List.of(PUBLIC), PublicAddresses::isPublic);
        for (String host : List.of(
                "2130706433",
                "0177.0.0.1",
                "0x7f.0.0.1",
                "0x7f000001",
                "127.1",
                "017700000001",
                "1.2.3.4.",
                "93.184.216.034",
                "a.b.0x10")) {
            assertThatThrownBy(() -> get(web, "http://" + host + "/")).as(host).hasMessageContaining("ambiguous form");
        }
        assertThat(http.calls()).isEmpty();
    }

    @Test
    void literalLoopbackAndPrivateAddressesInEveryFormAreRefusedByTheSystemResolver() {
        ScriptedHttp http = new ScriptedHttp();
        PublicWeb web = PublicWeb.of(http);
        for (String host : List.of(
                "127.0.0.1",
                "[::1]",
                "[::ffff:127.0.0.1]",
                "[::ffff:7f00:1]",
                "[::127.0.0.1]",
                "0.0.0.0",
                "[::]",
                "10.0.0.1",
                "172.16.0.1",
                "192.168.1.1",
                "169.254.169.254",
                "100.64.0.1",
                "[fe80::1]",
                "[fd12:3456::1]",
                "[64:ff9b::7f00:1]",
                "[2002:7f00:1::]",
                "localhost")) {
            assertThatThrownBy(() -> get(web, "http://" + host + ":8080/"))
                    .as(host)
                    .hasMessageContaining("not a public address");
        }
        assertThat(http.calls()).isEmpty();
    }

    @Test
    void onlyHttpAndHttpsAreFetched() {
        ScriptedHttp http = new ScriptedHttp();
        PublicWeb web = new PublicWeb(http, host -> List.of(PUBLIC), PublicAddresses::isPublic);
        for (String url : List.of(
                "file:///etc/passwd",
                "ftp://x.example/",
                "gopher://x.example:70/",
                "jar:http://x.example/a!/b",
                "http:///nohost")) {
            assertThatThrownBy(() -> get(web, url)).as(url).isInstanceOf(java.io.IOException.class);
        }
        assertThat(http.calls()).isEmpty();
    }
}

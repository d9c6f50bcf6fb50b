package dev.clawgate.server.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.internal.multimodal.HostResolver;
import dev.clawgate.core.internal.multimodal.PublicAddresses;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.run.CancelToken;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SSRF through the real HTTP client (SPEC AG-4, AG-5): fetches go over real sockets to two loopback sites on one port.
 * 127.0.0.2 stands in for a public web server (the tests cannot reach the internet; only here is it treated as public);
 * 127.0.0.1 is the gateway's own machine, which no fetch may ever reach.
 */
class PinnedFetchTest {
    static final InetAddress PUBLIC_STAND_IN = address("127.0.0.2");
    static final Predicate<InetAddress> POLICY = a -> a.equals(PUBLIC_STAND_IN) || PublicAddresses.isPublic(a);
    static final String PASSWORD = "changeit";

    @TempDir
    static Path keys;

    static Path keystore;

    LoopbackSite outside;
    LoopbackSite inside;
    JettyPinnedHttp http;

    static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A self-signed certificate for public.test, made with the JDK's keytool. */
    @BeforeAll
    static void certificate() throws Exception {
        keystore = keys.resolve("site.p12");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "site",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=public.test",
                        "-ext",
                        "SAN=dns:public.test",
                        "-validity",
                        "2",
                        "-keystore",
                        keystore.toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        PASSWORD,
                        "-keypass",
                        PASSWORD)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }

    @BeforeEach
    void sites() throws Exception {
        inside = LoopbackSite.http(new InetSocketAddress(address("127.0.0.1"), 0))
                .page("/", "text/plain", "INSIDE-SECRET")
                .page("/secret", "text/plain", "INSIDE-SECRET")
                .start();
        outside = LoopbackSite.http(new InetSocketAddress(PUBLIC_STAND_IN, inside.port()))
                .page("/", "text/plain", "public page")
                .redirect("/to-loopback", "http://127.0.0.1:" + inside.port() + "/secret")
                .redirect("/to-localhost", "http://localhost:" + inside.port() + "/secret")
                .redirect("/to-mapped", "http://[::ffff:127.0.0.1]:" + inside.port() + "/secret")
                .redirect("/to-decimal", "http://2130706433:" + inside.port() + "/secret")
                .redirect("/to-intranet", "http://intranet.test:" + inside.port() + "/secret")
                .redirect("/to-public", "/")
                .start();
        http = new JettyPinnedHttp(new SslContextFactory.Client(), Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        http.close();
        inside.close();
        outside.close();
    }

    private PublicWeb web(HostResolver resolver) {
        return new PublicWeb(http, resolver, POLICY);
    }

    private static String get(PublicWeb web, String url) throws Exception {
        return new String(
                web.get(URI.create(url), Duration.ofSeconds(10), 10_000, CancelToken.none())
                        .response()
                        .body(),
                StandardCharsets.UTF_8);
    }

    // SPEC AG-5: the probe that found it: a name that resolves public for the check and to loopback for the connection
    @Test
    void aRebindingNameIsFetchedFromTheAddressThatWasCheckedNeverFromTheSecondAnswer() throws Exception {
        AtomicInteger lookups = new AtomicInteger();
        // "localhost" also resolves to loopback through the system resolver: a client resolving on its own reaches it
        PublicWeb web = web(host -> List.of(lookups.getAndIncrement() == 0 ? PUBLIC_STAND_IN : address("127.0.0.1")));
        String port = ":" + inside.port();
        assertThat(get(web, "http://localhost" + port + "/")).isEqualTo("public page");
        // the next fetch resolves again, gets loopback, and is refused
        assertThatThrownBy(() -> get(web, "http://localhost" + port + "/"))
                .hasMessageContaining("refused: localhost is not a public");
        assertThat(inside.hits()).isEmpty();
        assertThat(outside.hits())
                .singleElement()
                .satisfies(h -> assertThat(h.host()).isEqualTo("localhost" + port));
    }

    // SPEC AG-5: every redirect hop is resolved and checked again
    @Test
    void redirectsToLoopbackPrivateOrAmbiguousAddressesAreRefused() throws Exception {
        PublicWeb web = web(host -> host.equals("site.test")
                ? List.of(PUBLIC_STAND_IN)
                : host.equals("intranet.test") ? List.of(address("10.1.2.3")) : HostResolver.SYSTEM.resolve(host));
        String base = "http://site.test:" + outside.port();
        for (String path : List.of("/to-loopback", "/to-localhost", "/to-mapped", "/to-decimal", "/to-intranet")) {
            assertThatThrownBy(() -> get(web, base + path)).as(path).hasMessageContaining("refused");
        }
        assertThat(get(web, base + "/to-public")).isEqualTo("public page");
        assertThat(inside.hits()).isEmpty();
    }

    // SPEC AG-5: every loopback and private form, with the production resolver and policy
    @Test
    void everyLoopbackAndPrivateFormIsRefusedBeforeAnyConnection() {
        PublicWeb production = PublicWeb.of(http);
        String port = ":" + inside.port();
        for (String host : List.of(
                "127.0.0.1",
                "localhost",
                "LOCALHOST.",
                "2130706433",
                "0177.0.0.1",
                "0x7f.0.0.1",
                "0x7f000001",
                "127.1",
                "017700000001",
                "[::1]",
                "[::ffff:127.0.0.1]",
                "[::ffff:7f00:1]",
                "[0:0:0:0:0:ffff:127.0.0.1]",
                "[::127.0.0.1]",
                "0.0.0.0",
                "[::]",
                "10.0.0.1",
                "172.16.0.1",
                "192.168.0.1",
                "169.254.169.254",
                "100.64.0.1",
                "[fd00::1]",
                "[fe80::1]",
                "[64:ff9b::7f00:1]",
                "[2002:7f00:1::]")) {
            assertThatThrownBy(() -> get(production, "http://" + host + port + "/secret"))
                    .as(host)
                    .hasMessageMatching("(?s).*(refused|unknown host).*");
        }
        assertThat(inside.hits()).isEmpty();
    }

    // SPEC AG-5: a name that resolves to a private address (or to any private one among its answers) is refused
    @Test
    void namesResolvingToPrivateAddressesAreRefused() {
        for (List<InetAddress> answer : List.of(
                List.of(address("192.168.1.10")),
                List.of(PUBLIC_STAND_IN, address("127.0.0.1")),
                List.of(address("::ffff:10.0.0.1")),
                List.of(address("169.254.169.254")))) {
            PublicWeb web = web(host -> answer);
            assertThatThrownBy(() -> get(web, "http://intranet.test:" + inside.port() + "/secret"))
                    .as(answer.toString())
                    .hasMessageContaining("not a public address");
        }
        assertThat(inside.hits()).isEmpty();
        assertThat(outside.hits()).isEmpty();
    }

    // SPEC AG-5: connecting by the checked address keeps the URL's host for TLS: its server name and its certificate
    @Test
    void httpsToACheckedAddressSendsTheHostsServerNameAndChecksItsCertificate() throws Exception {
        try (LoopbackSite tls = LoopbackSite.https(new InetSocketAddress(PUBLIC_STAND_IN, 0), serverContext())
                .page("/", "text/plain", "secure page")
                .start()) {
            SslContextFactory.Client trust = new SslContextFactory.Client();
            trust.setTrustStorePath(keystore.toString());
            trust.setTrustStorePassword(PASSWORD);
            trust.setTrustStoreType("PKCS12");
            try (JettyPinnedHttp client = new JettyPinnedHttp(trust, Duration.ofSeconds(2))) {
                PublicWeb web = new PublicWeb(client, host -> List.of(PUBLIC_STAND_IN), POLICY);
                assertThat(get(web, "https://public.test:" + tls.port() + "/")).isEqualTo("secure page");
                assertThat(tls.hits()).singleElement().satisfies(h -> {
                    assertThat(h.serverName()).isEqualTo("public.test");
                    assertThat(h.host()).isEqualTo("public.test:" + tls.port());
                });
                // the same address under another name: the certificate does not match, and nothing is fetched
                assertThatThrownBy(() -> get(web, "https://other.test:" + tls.port() + "/"))
                        .hasMessageContaining("other.test");
                assertThat(tls.hits()).hasSize(1);
            }
        }
    }

    private static SSLContext serverContext() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keystore.toFile())) {
            ks.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    // SPEC AG-5: a response larger than the limit is cut, and the rest is not read
    @Test
    void aBodyPastTheLimitIsCutAndMarked() throws Exception {
        PublicWeb web = web(host -> List.of(PUBLIC_STAND_IN));
        var page = web.get(
                URI.create("http://site.test:" + outside.port() + "/"), Duration.ofSeconds(5), 4, CancelToken.none());
        assertThat(page.response().body()).hasSize(4);
        assertThat(page.response().cut()).isTrue();
    }
}

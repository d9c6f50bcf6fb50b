package dev.clawgate.server.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image {@code ./mvnw -Pimage verify} builds with Jib (SPEC OP-9, issue 26), read as {@code docker load}
 * reads it: its config (non-root user, entry point, the data volume, the port) and its layers; then its file system
 * unpacked layer by layer and its entry point run in a chroot as the image's user (no container runtime is needed for
 * that), answering /healthz, and its Docker health check's command run there too, with the gateway up and stopped. Run
 * by failsafe in the image profile only.
 */
class ImageContents {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path TAR = Path.of("target", "clawgate-image.tar");
    private static final String AOT_CACHE = "/opt/clawgate/clawgate.aot";

    @TempDir
    Path dir;

    JsonNode config;
    List<String> layers = new ArrayList<>();

    @BeforeEach
    void unpackTheImage() throws Exception {
        assertThat(TAR).as("built by -Pimage").isRegularFile();
        sh(dir, "tar", "xf", TAR.toAbsolutePath().toString());
        JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile()).get(0);
        config = JSON.readTree(dir.resolve(manifest.get("Config").asText()).toFile());
        manifest.get("Layers").forEach(l -> layers.add(l.asText()));
    }

    private static String sh(Path cwd, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd)
                .directory(cwd.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
        return out;
    }

    @Test
    void itRunsAsAnUnprivilegedUserWithTheDataOnAVolume() {
        // SPEC OP-9
        JsonNode c = config.get("config");
        assertThat(c.get("User").asText()).isEqualTo("10001:10001");
        assertThat(JSON.convertValue(c.get("Entrypoint"), List.class))
                .startsWith("java", "--enable-native-access=ALL-UNNAMED", "@/etc/clawgate/jvm.options")
                .contains("-XX:AOTCache=" + AOT_CACHE)
                .endsWith("dev.clawgate.server.cli.Main");
        assertThat(JSON.convertValue(c.get("Cmd"), List.class)).containsExactly("run");
        assertThat(c.get("Volumes").has("/data")).isTrue();
        assertThat(c.get("ExposedPorts").has("8787/tcp")).isTrue();
        assertThat(JSON.convertValue(c.get("Env"), List.class))
                .contains("CLAWGATE_CONFIG=/etc/clawgate/clawgate.toml", "PATH=/opt/java/bin");
        assertThat(config.get("architecture").asText()).isEqualTo("amd64");
    }

    @Test
    void itsHealthCheckRunsTheProbeWithTheImagesOwnJavaWithoutAShell() throws Exception {
        // SPEC OP-3, OP-9: Docker's Healthcheck (written by packaging/image/ImageHealthcheck.java, Jib has none)
        JsonNode check = config.get("config").get("Healthcheck");
        assertThat(check).as("Healthcheck in the image config").isNotNull();
        List<String> test = healthCheckCommand();
        assertThat(check.get("Test").get(0).asText()).isEqualTo("CMD");
        assertThat(test).startsWith("/opt/java/bin/java").endsWith("dev.clawgate.server.cli.HealthProbe");
        assertThat(test.get(test.indexOf("-cp") + 1)).isEqualTo("/app/classpath/*");
        // nanoseconds, as docker inspect shows them
        long second = 1_000_000_000L;
        assertThat(check.get("Interval").asLong()).isEqualTo(30 * second);
        assertThat(check.get("Timeout").asLong()).isEqualTo(10 * second);
        assertThat(check.get("StartPeriod").asLong()).isEqualTo(60 * second);
        assertThat(check.get("Retries").asInt()).isEqualTo(3);
        // the manifest still names the rewritten config, and the layers it lists are all in the tar
        assertThat(sh(dir, "tar", "tf", TAR.toAbsolutePath().toString()).lines())
                .contains("manifest.json", "config.json")
                .containsAll(layers);
    }

    /** The Healthcheck's command, "CMD" left out. */
    private List<String> healthCheckCommand() {
        List<String> test = new ArrayList<>();
        config.get("config").get("Healthcheck").get("Test").forEach(a -> test.add(a.asText()));
        return test.subList(1, test.size());
    }

    /** The image's health check run in its file system as its user, as Docker would: its exit code and output. */
    private String healthCheck(Path root, int expectedExit) throws Exception {
        Process check =
                chroot(root, healthCheckCommand()).redirectErrorStream(true).start();
        long start = System.nanoTime();
        String out = new String(check.getInputStream().readAllBytes());
        assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as(out).isEqualTo(expectedExit);
        System.out.printf(
                "the image's health check, exit %d: %d ms%n", expectedExit, (System.nanoTime() - start) / 1_000_000);
        return out;
    }

    @Test
    void theLayersSeparateLibrariesFromTheGatewaysOwnCodeAndTheRuntime() throws Exception {
        // SPEC OP-9: an upgrade that changes only Clawgate's classes changes only their small layers
        List<String> comments = new ArrayList<>();
        config.get("history").forEach(h -> comments.add(h.path("comment").asText()));
        // packaged mode: the gateway's own classes and resources as one jar in a layer of its own (an AOT cache takes
        // jars only); Jib labels that layer "extra files" like the runtime's
        assertThat(comments).contains("dependencies", "project dependencies", "jvm arg files", "extra files");
        assertThat(layers).hasSize(comments.size());
        List<String> files = new ArrayList<>();
        for (String layer : layers)
            files.addAll(sh(dir, "tar", "tzf", layer).lines().toList());
        assertThat(files)
                .contains(
                        "opt/java/bin/java",
                        "etc/passwd",
                        "etc/clawgate/clawgate.toml",
                        "etc/clawgate/jvm.options",
                        "app/jib-classpath-file",
                        "lib64/ld-linux-x86-64.so.2");
        assertThat(files).anyMatch(f -> f.matches("app/libs/sqlite-jdbc-.*\\.jar"));
        assertThat(files).anyMatch(f -> f.matches("app/libs/clawgate-store-.*\\.jar"));
        assertThat(files).anyMatch(f -> f.matches("app/classpath/clawgate-server-.*\\.jar"));
        assertThat(files).contains("opt/clawgate/clawgate.aot");
        assertThat(files).noneMatch(f -> f.startsWith("bin/sh") || f.startsWith("usr/bin/"));
    }

    @Test
    void theAotStartUpCacheInTheImageIsMappedByItsOwnRuntime() throws Exception {
        // SPEC OP-9: trained during the image build (packaging/image/aot-train.sh) for the image's JDK and class path
        Assumptions.assumeTrue(canChroot(), "a chroot needs root and util-linux's unshare");
        Path root = rootfs();
        assertThat(root.resolve(AOT_CACHE.substring(1)))
                .as("trained by aot-train.sh")
                .isRegularFile();
        List<String> entry = new ArrayList<>();
        config.get("config").get("Entrypoint").forEach(a -> entry.add(a.asText()));
        // -XX:AOTMode=on: the JVM refuses to start unless it maps the cache (the image itself runs with auto)
        entry.add(1, "-XX:AOTMode=on");
        entry.add("--version");
        ProcessBuilder pb = chroot(root, entry).redirectErrorStream(true);
        long start = System.nanoTime();
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).startsWith("clawgate ");
        System.out.printf(
                "clawgate --version in the image with its AOT cache: %d ms%n", (System.nanoTime() - start) / 1_000_000);
    }

    private static boolean canChroot() {
        return Files.isExecutable(Path.of("/usr/bin/unshare")) && "root".equals(System.getProperty("user.name"));
    }

    /** The image's layers unpacked in order, as a container runtime stacks them. */
    private Path rootfs() throws Exception {
        Path root = Files.createDirectory(dir.resolve("rootfs"));
        for (String layer : layers) sh(dir, "tar", "xzf", layer, "-C", root.toString(), "--warning=no-unknown-keyword");
        return root;
    }

    /** {@code command} run as the image's user in {@code root}, with the image's environment only. */
    private ProcessBuilder chroot(Path root, List<String> command) {
        JsonNode c = config.get("config");
        List<String> cmd = new ArrayList<>(List.of(
                "/usr/bin/unshare",
                "--mount",
                "--fork",
                "--pid",
                "--kill-child=SIGTERM",
                "--mount-proc=" + root.resolve("proc"),
                "/usr/sbin/chroot",
                "--userspec=" + c.get("User").asText(),
                root.toString()));
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().clear();
        c.get("Env")
                .forEach(e -> pb.environment()
                        .put(e.asText().split("=", 2)[0], e.asText().split("=", 2)[1]));
        return pb;
    }

    @Test
    void itsEntryPointStartsTheGatewayAsItsUserInItsOwnFileSystem() throws Exception {
        // SPEC OP-3, OP-9: what `docker run` would do, without a daemon: the layers in order, a chroot, the user
        Path unshare = Path.of("/usr/bin/unshare");
        Assumptions.assumeTrue(
                Files.isExecutable(unshare) && "root".equals(System.getProperty("user.name")),
                "a chroot needs root and util-linux's unshare");
        Path root = Files.createDirectory(dir.resolve("rootfs"));
        for (String layer : layers) sh(dir, "tar", "xzf", layer, "-C", root.toString(), "--warning=no-unknown-keyword");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path conf = root.resolve("etc/clawgate/clawgate.toml");
        Files.writeString(conf, Files.readString(conf).replace("0.0.0.0:8787", "127.0.0.1:" + port));
        JsonNode c = config.get("config");
        List<String> cmd = new ArrayList<>(List.of(
                unshare.toString(),
                "--mount",
                "--fork",
                "--pid",
                "--kill-child=SIGTERM",
                "--mount-proc=" + root.resolve("proc"),
                "/usr/sbin/chroot",
                "--userspec=" + c.get("User").asText(),
                root.toString()));
        c.get("Entrypoint").forEach(a -> cmd.add(a.asText()));
        c.get("Cmd").forEach(a -> cmd.add(a.asText()));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("run.log").toFile());
        pb.environment().clear();
        c.get("Env")
                .forEach(e -> pb.environment()
                        .put(e.asText().split("=", 2)[0], e.asText().split("=", 2)[1]));
        pb.environment().put("CLAWGATE_AUTH_TOKEN", "image-test-token");
        long started = System.nanoTime();
        Process p = pb.start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            await().atMost(Duration.ofSeconds(90))
                    .ignoreExceptionsInstanceOf(IOException.class)
                    .until(() -> http.send(
                                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString())
                                    .statusCode()
                            == 200);
            System.out.printf(
                    "the image's entry point to the first /healthz 200: %d ms%n",
                    (System.nanoTime() - started) / 1_000_000);
            // SPEC OP-9: the health check finds the gateway on the bind of the config it reads, and says healthy
            assertThat(healthCheck(root, 0)).isEqualTo("healthcheck: http://127.0.0.1:" + port + "/healthz 200\n");
            // the gateway's own folder in the volume, owned by the image's user, private
            assertThat(Files.getOwner(root.resolve("data/clawgate/clawgate.db")).getName())
                    .isIn("10001", "clawgate");
            assertThat(Files.readString(dir.resolve("run.log")).lines().filter(l -> l.startsWith("{")))
                    .isNotEmpty()
                    .allSatisfy(l -> assertThat(JSON.readTree(l).has("level")).isTrue());
        } finally {
            p.descendants()
                    .filter(h -> h.info().command().orElse("").endsWith("/java"))
                    .forEach(ProcessHandle::destroy);
            assertThat(p.waitFor(30, TimeUnit.SECONDS))
                    .as(Files.readString(dir.resolve("run.log")))
                    .isTrue();
        }
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("run.log"))).isZero();
        // a stopped gateway is unhealthy
        assertThat(healthCheck(root, 1)).contains("ConnectException");
    }
}

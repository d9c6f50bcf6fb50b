package dev.clawgate.server.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball {@code ./mvnw package} builds, as a server install uses it (SPEC OP-9, issue 26): unpacked with tar,
 * started through bin/clawgate with its own conf/clawgate.toml, answering /healthz, backed up while it runs, a restore
 * refused while it runs, stopped by SIGTERM with exit 0; the systemd unit beside it checked.
 */
class TarballIT {
    @TempDir
    Path dir;

    Path home;

    record Result(int exit, String out, String err) {}

    @BeforeEach
    void unpack() throws Exception {
        Path tarball;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            tarball = files.filter(p -> p.getFileName().toString().matches("clawgate-.*\\.tar\\.gz"))
                    .findFirst()
                    .orElseThrow();
        }
        Process tar = new ProcessBuilder("tar", "xzf", tarball.toAbsolutePath().toString(), "-C", dir.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        try (Stream<Path> top = Files.list(dir)) {
            home = top.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    private ProcessBuilder clawgate(String... args) {
        List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/clawgate").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        for (String unset : List.of("CLAWGATE_CONFIG", "CLAWGATE_DATA_DIR", "CLAWGATE_AOT_CACHE", "OPENAI_API_KEY"))
            env.remove(unset);
        return pb;
    }

    private Result run(String... args) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = clawgate(args)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS))
                .as("clawgate %s exits", List.of(args))
                .isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void theLayoutIsBinLibConfAndTheUnitFollowsIt() throws Exception {
        // SPEC OP-9
        assertThat(home.getFileName().toString()).startsWith("clawgate-");
        assertThat(Files.isExecutable(home.resolve("bin/clawgate"))).isTrue();
        assertThat(home.resolve("lib/clawgate.jar")).isRegularFile();
        assertThat(home.resolve("conf/jvm.options")).isRegularFile();
        assertThat(Files.readString(home.resolve("conf/clawgate.toml")))
                .contains("data_dir = \"${CLAWGATE_DATA_DIR}\"");
        String unit = Files.readString(home.resolve("systemd/clawgate.service"));
        assertThat(unit.lines().map(String::strip).toList())
                .contains(
                        "ExecStart=/opt/clawgate/bin/clawgate run",
                        "User=clawgate",
                        "ProtectSystem=strict",
                        "ReadWritePaths=/var/lib/clawgate /var/cache/clawgate",
                        "NoNewPrivileges=yes",
                        "Restart=on-failure",
                        "MemoryMax=1G",
                        "StateDirectory=clawgate",
                        "Environment=CLAWGATE_DATA_DIR=/var/lib/clawgate",
                        "Environment=CLAWGATE_CONFIG=/etc/clawgate/clawgate.toml");
        Result version = run("--version");
        assertThat(version.exit()).as(version.err()).isZero();
        assertThat(version.out()).startsWith("clawgate ").doesNotContain("unknown");
    }

    @Test
    void systemdAcceptsTheUnit() throws Exception {
        // SPEC OP-9: systemd's own check of the unit's directives, with ExecStart pointing at this unpacked copy
        Path analyze = Path.of("/usr/bin/systemd-analyze");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(analyze), "systemd-analyze is not installed");
        Path unit = dir.resolve("clawgate.service");
        Files.writeString(
                unit,
                Files.readString(home.resolve("systemd/clawgate.service"))
                        .replace("/opt/clawgate/", home.toString() + "/"));
        Process p = new ProcessBuilder(analyze.toString(), "verify", unit.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out.lines().filter(l -> l.contains("clawgate.service")).toList())
                .as(out)
                .isEmpty();
    }

    @Test
    void startedThroughBinClawgateItServesHealthzBacksUpRefusesARestoreAndStopsCleanly() throws Exception {
        // SPEC OP-3, OP-4, OP-9
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path conf = home.resolve("conf/clawgate.toml");
        Files.writeString(conf, Files.readString(conf).replace("127.0.0.1:8787", "127.0.0.1:" + port));
        Path log = dir.resolve("run.log");
        Process gateway = clawgate("run")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
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
            // the data went where bin/clawgate said: data/ beside bin/
            assertThat(home.resolve("data/clawgate.db")).isRegularFile();
            assertThat(home.resolve("data/clawgate.lock")).isRegularFile();

            Path backup = dir.resolve("backup.db");
            Result b = run("backup", backup.toString());
            assertThat(b.exit()).as(b.err()).isZero();
            assertThat(b.out()).contains("integrity check ok");

            Result r = run("restore", backup.toString());
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err()).contains("not restoring").contains("stop");
        } finally {
            gateway.destroy();
            assertThat(gateway.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(gateway.exitValue()).as(Files.readString(log)).isZero();
        // stopped, the same restore goes through
        Result r = run("restore", dir.resolve("backup.db").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(home.resolve("data/clawgate.db.before-restore")).isRegularFile();
    }
}

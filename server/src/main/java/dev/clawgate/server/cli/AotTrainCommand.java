package dev.clawgate.server.cli;

import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.server.Gateway;
import dev.clawgate.server.GatewayOptions;
import dev.clawgate.server.config.ConfigLoader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/**
 * {@code clawgate aot-train} (hidden): the training run behind the launcher's start-up cache. The launcher runs it once
 * per build under {@code -XX:AOTCacheOutput}; the JDK records which classes a gateway loads and links and writes them
 * to the cache when this command exits, and every later {@code ./clawgate} start maps them instead of loading them
 * again (bench/RESULTS.md: start to the first poll about 1.4 s without, 0.8 s with).
 *
 * <p>It starts a gateway on defaults in a throw-away folder with its HTTP server on a free loopback port, asks its API
 * for one reply (no model is configured, so the gateway answers with its own line through the whole turn: inbox,
 * dispatcher, store, outbox), and stops it.
 */
@Command(name = "aot-train", hidden = true, description = "Train the launcher's start-up cache (run by ./clawgate).")
final class AotTrainCommand implements Callable<Integer> {
    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("clawgate-aot-");
        try {
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    "[gateway]\ndata_dir = \"" + dir.resolve("data").toString().replace("\\", "\\\\")
                            + "\"\nbind = \"127.0.0.1:0\"\n");
            try (Gateway gateway = Gateway.start(new ConfigLoader().load(config, Map.of()), GatewayOptions.server())) {
                HttpClient http = HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
                URI base = URI.create("http://127.0.0.1:" + gateway.httpPort());
                HttpResponse<String> ready = http.send(
                        HttpRequest.newBuilder(base.resolve("/readyz")).build(), HttpResponse.BodyHandlers.ofString());
                HttpResponse<String> reply = http.send(
                        HttpRequest.newBuilder(base.resolve("/v1/chat/completions"))
                                .header("Content-Type", "application/json")
                                .timeout(Duration.ofSeconds(30))
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"model\":\"clawgate\",\"user\":\"aot-training\","
                                                + "\"messages\":[{\"role\":\"user\",\"content\":\"Hello, this "
                                                + "is the start-up cache's training run.\"}]}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() != 200 || reply.statusCode() != 200) {
                    System.err.println("clawgate aot-train: the gateway answered /readyz " + ready.statusCode()
                            + " and the API " + reply.statusCode());
                    return Main.FAILURE;
                }
            }
            loadChannelClasses();
            return Main.OK;
        } finally {
            deleteTree(dir);
        }
    }

    /**
     * Loads every class of each channel module found on the class path, so the cache maps them too: a channel's own
     * start (the first long poll, the first socket) then loads nothing from the jar. The training gateway runs no
     * channel (it has no platform to talk to), so without this they would not be in the cache (issue 27: start to the
     * first poll).
     */
    static List<String> loadChannelClasses() throws IOException {
        ClassLoader loader = AotTrainCommand.class.getClassLoader();
        List<String> loaded = new ArrayList<>();
        for (ChannelFactory f : ServiceLoader.load(ChannelFactory.class, loader)) {
            String pkg = f.getClass().getPackageName().replace('.', '/') + "/";
            java.security.CodeSource source = f.getClass().getProtectionDomain().getCodeSource();
            if (source == null) continue;
            Path where = Path.of(URI.create(source.getLocation().toString()));
            for (String entry : classFiles(where, pkg)) {
                String name =
                        entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
                try {
                    Class.forName(name, false, loader);
                    loaded.add(name);
                } catch (ClassNotFoundException | LinkageError ex) {
                    System.err.println("clawgate aot-train: " + name + " not cached: " + ex);
                }
            }
        }
        return loaded;
    }

    /** The class files directly in {@code pkg} (a path ending in /) of a jar or a class folder. */
    private static List<String> classFiles(Path where, String pkg) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(where)) {
            Path dir = where.resolve(pkg);
            if (!Files.isDirectory(dir)) return names;
            try (Stream<Path> files = Files.list(dir)) {
                files.map(p -> pkg + p.getFileName())
                        .filter(n -> n.endsWith(".class"))
                        .forEach(names::add);
            }
            return names;
        }
        try (JarFile jar = new JarFile(where.toFile())) {
            for (JarEntry e : java.util.Collections.list(jar.entries())) {
                String n = e.getName();
                if (n.startsWith(pkg) && n.endsWith(".class") && n.indexOf('/', pkg.length()) < 0) names.add(n);
            }
        }
        return names;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}

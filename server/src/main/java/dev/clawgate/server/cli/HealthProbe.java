package dev.clawgate.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The container image's health check (SPEC OP-3, OP-9, issue 26): {@code GET /healthz} on the gateway's own
 * {@code gateway.bind}, exit 0 on 200 and 1 on anything else. The image has no shell and no curl, so its
 * {@code Healthcheck} runs this class with the image's own {@code java} (exec form), every interval: it uses
 * {@code java.base} only (no picocli, no Jackson, no config loader), so its JVM starts in a fraction of a second.
 *
 * <p>The address: an argument {@code host:port} if given, else {@code gateway.bind} read from the file the gateway
 * reads ({@code $CLAWGATE_CONFIG}, else {@code ./clawgate.toml}), with {@code ${VAR}} references expanded, else the
 * gateway's default {@code 127.0.0.1:8787}; a wildcard bind is asked on loopback. It prints one line (the URL and the
 * status, or why there was none): never a token or a header, and {@code /healthz} needs no token.
 */
public final class HealthProbe {
    /** The gateway's default {@code gateway.bind} ({@code GatewaySettings.defaults()}). */
    static final String DEFAULT_BIND = "127.0.0.1:8787";

    static final int CONNECT_TIMEOUT_MS = 2_000;
    static final int READ_TIMEOUT_MS = 3_000;

    private static final Pattern TABLE = Pattern.compile("^\\[\\s*([A-Za-z0-9_.\" -]+?)\\s*]\\s*(#.*)?$");
    private static final Pattern BIND = Pattern.compile("^bind\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')\\s*(#.*)?$");
    private static final Pattern ENV = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private HealthProbe() {}

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out));
    }

    /** The exit code for {@code args} (none or one {@code host:port}), the one line written to {@code out}. */
    static int run(String[] args, Map<String, String> env, PrintStream out) {
        String bind;
        try {
            bind = args.length > 0 ? args[0] : bindFromConfig(env);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            out.println("healthcheck: " + e.getMessage());
            return 1;
        }
        return probe(bind, out);
    }

    /** {@code GET http://<bind, wildcard on loopback>/healthz}: 0 on 200, else 1. */
    static int probe(String bind, PrintStream out) {
        URI url;
        try {
            url = URI.create("http://" + loopbackFor(bind) + "/healthz");
        } catch (IllegalArgumentException e) {
            out.println("healthcheck: '" + bind + "' is not host:port");
            return 1;
        }
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) url.toURL().openConnection(Proxy.NO_PROXY);
            c.setConnectTimeout(CONNECT_TIMEOUT_MS);
            c.setReadTimeout(READ_TIMEOUT_MS);
            c.setUseCaches(false);
            c.setInstanceFollowRedirects(false);
            int status = c.getResponseCode();
            try (InputStream body = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
                if (body != null) body.readNBytes(4_096);
            }
            out.println("healthcheck: " + url + " " + status);
            return status == 200 ? 0 : 1;
        } catch (IOException e) {
            String m = e.getMessage();
            out.println("healthcheck: " + url + " " + e.getClass().getSimpleName()
                    + (m == null || m.isBlank() ? "" : ": " + m));
            return 1;
        } finally {
            if (c != null) c.disconnect();
        }
    }

    /** {@code host:port} as a client reaches it: a wildcard host is asked on loopback (as {@code clawgate status}). */
    static String loopbackFor(String bind) {
        int colon = bind.lastIndexOf(':');
        if (colon < 0) throw new IllegalArgumentException("no port");
        String host = bind.substring(0, colon);
        String port = bind.substring(colon + 1);
        int number = Integer.parseInt(port);
        if (number < 1 || number > 65_535) throw new IllegalArgumentException("no port");
        if (host.equals("0.0.0.0") || host.isEmpty()) host = "127.0.0.1";
        if (host.equals("[::]") || host.equals("::")) host = "[::1]";
        return host + ":" + port;
    }

    /** {@code gateway.bind} from the config file the gateway reads, or its default when the file or key is absent. */
    static String bindFromConfig(Map<String, String> env) {
        String named = env.get("CLAWGATE_CONFIG");
        Path file = Path.of(named == null || named.isBlank() ? "clawgate.toml" : named);
        if (!Files.isRegularFile(file)) {
            if (named != null && !named.isBlank())
                throw new IllegalArgumentException("no config file " + file + " ($CLAWGATE_CONFIG)");
            return DEFAULT_BIND;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read " + file + ": " + e.getClass().getSimpleName(), e);
        }
        String bind = bindIn(lines);
        return bind == null ? DEFAULT_BIND : expand(bind, env, file);
    }

    /** The {@code bind} key of the {@code [gateway]} table, as written; null when there is none. */
    static String bindIn(List<String> lines) {
        String table = "";
        for (String raw : lines) {
            String line = raw.strip();
            Matcher t = TABLE.matcher(line);
            if (t.matches()) {
                table = t.group(1).replace("\"", "").strip();
                continue;
            }
            if (!table.equals("gateway")) continue;
            Matcher b = BIND.matcher(line);
            if (b.matches()) return b.group(1) != null ? b.group(1) : b.group(2);
        }
        return null;
    }

    private static String expand(String bind, Map<String, String> env, Path file) {
        Matcher m = ENV.matcher(bind);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = env.get(m.group(1));
            if (value == null)
                throw new IllegalArgumentException("gateway.bind in " + file + " names ${" + m.group(1) + "}, unset");
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}

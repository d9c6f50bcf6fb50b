package dev.clawgate.server.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The commented starter {@code clawgate.toml} that {@code clawgate init} writes (SPEC OP-4). */
public final class StarterConfig {
    private static final String RESOURCE = "starter-config.toml";

    private StarterConfig() {}

    /** Every key, commented out with its default, plus provider examples to uncomment. */
    public static String text() {
        try (InputStream in = StarterConfig.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}

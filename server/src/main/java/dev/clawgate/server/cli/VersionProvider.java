package dev.clawgate.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** {@code clawgate --version}: the version the build wrote into {@code version.properties} (resource filtering). */
final class VersionProvider implements CommandLine.IVersionProvider {
    static final String RESOURCE = "/dev/clawgate/server/version.properties";

    @Override
    public String[] getVersion() {
        String java = "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")";
        return new String[] {"clawgate " + version(), java};
    }

    static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) return "unknown";
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}

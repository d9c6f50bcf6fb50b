package dev.clawgate.server.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Checks {@code providers.NAME.base_url}; the URL is never quoted back, it may carry credentials. */
final class BaseUrl {
    private BaseUrl() {}

    static void check(String url, String keyPath, String file) {
        String problem = "must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:11434/v1";
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) return;
        } catch (URISyntaxException e) {
            throw new ConfigException("'" + keyPath + "' in " + file + " " + problem + " (" + e.getReason() + ")");
        }
        throw new ConfigException("'" + keyPath + "' in " + file + " " + problem);
    }
}

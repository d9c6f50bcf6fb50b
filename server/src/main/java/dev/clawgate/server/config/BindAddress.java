package dev.clawgate.server.config;

/** Checks {@code gateway.bind}: {@code host:port}, IPv6 hosts in brackets, port 0..65535. */
final class BindAddress {
    private BindAddress() {}

    static void check(String bind, String keyPath, String file) {
        String prefix = "'" + keyPath + "' in " + file + " ";
        int colon = bind.lastIndexOf(':');
        if (colon <= 0 || colon == bind.length() - 1) {
            throw new ConfigException(prefix + "is '" + bind + "'; write host:port, e.g. 127.0.0.1:8787");
        }
        String host = bind.substring(0, colon);
        String port = bind.substring(colon + 1);
        if (host.startsWith("[") != host.endsWith("]")
                || host.equals("[]")
                || (!host.startsWith("[") && host.contains(":"))) {
            throw new ConfigException(prefix + "is '" + bind + "'; write IPv6 hosts in brackets, e.g. [::1]:8787");
        }
        if (!port.chars().allMatch(c -> c >= '0' && c <= '9') || port.length() > 5 || Integer.parseInt(port) > 65535) {
            throw new ConfigException(prefix + "has port '" + port + "'; use a port from 0 to 65535");
        }
    }
}

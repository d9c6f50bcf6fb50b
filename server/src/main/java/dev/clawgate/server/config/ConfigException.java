package dev.clawgate.server.config;

/**
 * A configuration that cannot be used. The message is one line naming the file, the key and the fix, and never contains
 * a configured value that could be a secret (SPEC OP-6).
 */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}

package dev.clawgate.core.config;

import java.time.Duration;
import java.util.Objects;

/**
 * What the gateway's HTTP server allows one caller (SPEC OP-10), from {@code [gateway]}.
 *
 * @param maxBodyBytes {@code gateway.max_body_bytes}: the largest request body, and the largest web chat WebSocket
 *     message; past it a request is answered 413 before its body is read
 * @param maxConnections {@code gateway.max_connections}: open connections at once; past it new ones wait to be accepted
 * @param readTimeout {@code gateway.read_timeout}: how long a request's headers, then its body, may take to arrive in
 *     full, and how long an idle connection is kept open
 * @param writeTimeout {@code gateway.write_timeout}: how long a response may wait on a caller that does not read it
 */
public record RequestBounds(long maxBodyBytes, int maxConnections, Duration readTimeout, Duration writeTimeout) {
    public static final long DEFAULT_MAX_BODY_BYTES = 1024L * 1024;
    public static final int DEFAULT_MAX_CONNECTIONS = 512;
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(30);

    public RequestBounds {
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(writeTimeout, "writeTimeout");
        if (maxBodyBytes < 1) throw new IllegalArgumentException("maxBodyBytes must be at least 1: " + maxBodyBytes);
        if (maxConnections < 1) throw new IllegalArgumentException("maxConnections must be >= 1: " + maxConnections);
        if (!readTimeout.isPositive()) throw new IllegalArgumentException("readTimeout must be positive");
        if (!writeTimeout.isPositive()) throw new IllegalArgumentException("writeTimeout must be positive");
    }

    public static RequestBounds defaults() {
        return new RequestBounds(
                DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_CONNECTIONS, DEFAULT_READ_TIMEOUT, DEFAULT_WRITE_TIMEOUT);
    }
}

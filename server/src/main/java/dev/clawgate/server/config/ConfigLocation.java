package dev.clawgate.server.config;

import java.nio.file.Path;

/**
 * Where the config file is, and whether the user named it.
 *
 * @param explicit true when named by {@code --config} or {@code $CLAWGATE_CONFIG}: then it must exist
 */
public record ConfigLocation(Path path, boolean explicit) {}

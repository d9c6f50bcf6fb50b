package dev.clawgate.server.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where a config is read from.
 *
 * @param file how messages name the file
 * @param baseDir what relative paths in the file resolve against (absolute)
 * @param env the environment {@code ${VAR}} references read
 */
record ConfigSource(String file, Path baseDir, Map<String, String> env) {}

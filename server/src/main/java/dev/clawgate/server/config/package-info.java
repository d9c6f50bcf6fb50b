/**
 * Loading {@code clawgate.toml} into {@link dev.clawgate.core.config.ClawgateConfig}: the
 * declared key schema, {@code ${VAR}} interpolation, defaults and one-line errors. Entry
 * point: {@link dev.clawgate.server.config.ConfigLoader}.
 */
package dev.clawgate.server.config;

/**
 * Loading {@code clawgate.toml} into {@link dev.clawgate.core.config.ClawgateConfig}: the
 * declared key schema, {@code ${VAR}} interpolation, defaults and one-line errors. Entry
 * point: {@link dev.clawgate.server.config.ConfigLoader}. A channel module declares the keys of
 * its own {@code [channels.<name>]} table with a
 * {@link dev.clawgate.server.config.ChannelConfigKeys} service (or the wiring passes
 * {@link dev.clawgate.server.config.ChannelKeys} to the loader).
 */
package dev.clawgate.server.config;

/**
 * Loading {@code clawgate.toml} into {@link dev.clawgate.core.config.ClawgateConfig}: the declared key schema,
 * {@code ${VAR}} interpolation, defaults and one-line errors. Entry point:
 * {@link dev.clawgate.server.config.ConfigLoader}. A channel module declares the keys of its own
 * {@code [channels.<name>]} table in its {@link dev.clawgate.core.channel.ChannelFactory} ({@code options()},
 * {@code check(...)}), found with {@link java.util.ServiceLoader}; this package names no channel module
 * ({@link dev.clawgate.server.config.ChannelKeys}).
 */
package dev.clawgate.server.config;

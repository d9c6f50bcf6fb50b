package dev.clawgate.server.config;

import dev.clawgate.core.channel.ChannelOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The commented starter {@code clawgate.toml} that {@code clawgate init} writes (SPEC OP-4). */
public final class StarterConfig {
    private static final String RESOURCE = "starter-config.toml";
    /** Where the keys of the channels found here go: each channel module declares its own. */
    private static final String CHANNEL_KEYS = "# @CHANNEL_KEYS@";

    private StarterConfig() {}

    /** Every key, commented out with its default, plus provider examples to uncomment. */
    public static String text() {
        return text(ChannelKeys.discovered());
    }

    /** As {@link #text()}, with the keys of {@code channels} (what their modules declare, SPEC OP-4). */
    static String text(ChannelKeys channels) {
        try (InputStream in = StarterConfig.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.replace(CHANNEL_KEYS, channelKeys(channels));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /**
     * One commented block per channel: each key with its description and default; secrets as an {@code ${ENV}}
     * reference.
     */
    static String channelKeys(ChannelKeys channels) {
        StringBuilder out = new StringBuilder();
        for (String channel : channels.knownChannels()) {
            if (channels.optionsOf(channel).isEmpty()) continue;
            if (!out.isEmpty()) out.append("\n");
            out.append("# The keys of the ").append(channel).append(" channel (they may also be set per account):\n");
            out.append("# [channels.").append(channel).append("]\n");
            for (ChannelOption o : channels.optionsOf(channel)) {
                if (!o.description().isBlank())
                    out.append("# ").append(o.description()).append("\n");
                out.append("# ").append(line(channel, o)).append("\n");
            }
        }
        return out.toString().stripTrailing();
    }

    private static String line(String channel, ChannelOption o) {
        if (o.secret()) {
            String env = (channel + "_" + o.key()).toUpperCase(Locale.ROOT).replace('-', '_');
            return o.key() + " = \"${" + env + "}\"";
        }
        if (o.defaultValue() == null) return o.key() + " = (no default; set it to use the channel)";
        return o.key() + " = "
                + switch (o.type()) {
                    case STRING -> "\"" + o.defaultValue() + "\"";
                    case LIST ->
                        o.defaultValue().isEmpty()
                                ? "[]"
                                : "[\"" + String.join("\", \"", o.defaultValue().split(",")) + "\"]";
                    case INTEGER, BOOLEAN -> o.defaultValue();
                };
    }
}

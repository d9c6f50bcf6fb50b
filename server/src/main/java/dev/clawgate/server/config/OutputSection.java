package dev.clawgate.server.config;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.render.HumanDelay;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.render.ReplyToMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads how a channel's replies are shaped (SPEC OUT-2, OUT-3): {@code reply_to_mode}, {@code response_prefix} (also
 * per account), and the {@code [channels.<ch>.block_streaming]} table; {@code messages.response_prefix} is read by
 * {@link #globalPrefix}.
 */
final class OutputSection {
    private static final Pattern DELAY_RANGE = Pattern.compile("(\\d{1,6})\\s*-\\s*(\\d{1,6})");
    private static final int MAX_BLOCK_CHARS = 1_000_000;

    private OutputSection() {}

    /** {@code messages.response_prefix}, or null when unset ({@code ""} is kept: it means "no prefix"). */
    static String globalPrefix(TableReader root) {
        return root.table("messages").string("response_prefix");
    }

    static ChannelOutput read(TableReader channel) {
        ReplyToMode mode = channel.choice(
                "reply_to_mode", null, OutputSection::mode, "a reply_to_mode", "off, first, all, batched");
        Map<String, String> accountPrefixes = new LinkedHashMap<>();
        for (var account : channel.namedTables("accounts").entrySet()) {
            String prefix = account.getValue().string("response_prefix");
            if (prefix != null) accountPrefixes.put(account.getKey(), prefix);
        }
        return new ChannelOutput(mode, channel.string("response_prefix"), accountPrefixes, blockStreaming(channel));
    }

    /** The block streaming settings, or null unless the table sets {@code enabled = true}. */
    private static BlockStreaming blockStreaming(TableReader channel) {
        if (!channel.has("block_streaming")) return null;
        TableReader t = channel.table("block_streaming");
        if (!t.bool("enabled", false)) return null;
        BlockStreaming d = BlockStreaming.defaults();
        int max = t.integer("max_chars", d.maxChars(), ChunkLimits.MIN_UNITS, MAX_BLOCK_CHARS);
        int min = t.integer("min_chars", Math.min(d.minChars(), max), 0, MAX_BLOCK_CHARS);
        if (min > max) throw t.error(t.keyPath("min_chars"), "is " + min + ", above max_chars (" + max + ")");
        return new BlockStreaming(
                t.choice(
                        "break",
                        d.breakMode(),
                        v -> parsed(() -> BlockStreaming.BreakMode.parse(v)),
                        "a break mode",
                        "text_end, message_end"),
                min,
                max,
                t.choice(
                        "break_preference",
                        d.breakPreference(),
                        v -> parsed(() -> BlockStreaming.BreakPreference.parse(v)),
                        "a break preference",
                        "paragraph, newline, sentence"),
                Duration.ofMillis(
                        t.longInteger("coalesce_idle_ms", d.coalesceIdle().toMillis(), 0, Integer.MAX_VALUE)),
                t.choice(
                        "human_delay",
                        d.humanDelay(),
                        OutputSection::humanDelay,
                        "a human delay",
                        "off, natural, or a range of milliseconds such as \"500-1500\""));
    }

    private static Optional<ReplyToMode> mode(String value) {
        return parsed(() -> ReplyToMode.parse(value));
    }

    /** {@code off}, {@code natural} (800–2500 ms) or {@code "MIN-MAX"} in milliseconds. */
    static Optional<HumanDelay> humanDelay(String value) {
        String v = value.strip();
        if (v.equalsIgnoreCase("off")) return Optional.of(HumanDelay.off());
        if (v.equalsIgnoreCase("natural")) return Optional.of(HumanDelay.natural());
        Matcher m = DELAY_RANGE.matcher(v);
        if (!m.matches()) return Optional.empty();
        long lo = Long.parseLong(m.group(1));
        long hi = Long.parseLong(m.group(2));
        return lo <= hi
                ? Optional.of(HumanDelay.custom(Duration.ofMillis(lo), Duration.ofMillis(hi)))
                : Optional.empty();
    }

    private static <T> Optional<T> parsed(java.util.function.Supplier<T> parse) {
        try {
            return Optional.of(parse.get());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}

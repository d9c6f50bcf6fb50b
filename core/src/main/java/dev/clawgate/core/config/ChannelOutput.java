package dev.clawgate.core.config;

import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.render.ReplyToMode;
import java.util.Map;

/**
 * How a channel's replies are shaped (SPEC OUT-2, OUT-3): {@code channels.<ch>.reply_to_mode},
 * {@code channels.<ch>.response_prefix} and its accounts' own, and {@code channels.<ch>.block_streaming}.
 *
 * @param replyToMode null: the default for the chat type ({@link ReplyToMode#defaultFor})
 * @param responsePrefix null when the channel sets none (the cascade goes on to {@code messages.response_prefix})
 * @param accountPrefixes {@code channels.<ch>.accounts.<id>.response_prefix} of the accounts that set one
 * @param blockStreaming null: block streaming is off (the default)
 */
public record ChannelOutput(
        ReplyToMode replyToMode,
        String responsePrefix,
        Map<String, String> accountPrefixes,
        BlockStreaming blockStreaming) {
    private static final ChannelOutput DEFAULTS = new ChannelOutput(null, null, Map.of(), null);

    public ChannelOutput {
        accountPrefixes = accountPrefixes == null ? Map.of() : Map.copyOf(accountPrefixes);
    }

    public static ChannelOutput defaults() {
        return DEFAULTS;
    }

    /** The mode replies in a chat of {@code type} get. */
    public ReplyToMode replyToModeFor(ChatType type) {
        return replyToMode != null ? replyToMode : ReplyToMode.defaultFor(type);
    }

    /** The prefix {@code account} sets itself, or null. */
    public String accountPrefix(String account) {
        return account == null ? null : accountPrefixes.get(account);
    }
}

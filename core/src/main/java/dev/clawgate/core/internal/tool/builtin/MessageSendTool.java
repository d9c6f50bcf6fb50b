package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;

/**
 * {@code message_send} (SPEC AG-5): the agent sends a message to this or another conversation through the same durable
 * outbound path as replies (SPEC OUT-5..OUT-12).
 */
public final class MessageSendTool extends BuiltinTool {
    public static final String NAME = "message_send";

    public MessageSendTool() {
        super(
                NAME,
                "Send a message to this conversation now, or to another chat on a channel the gateway runs.",
                ArgumentSchema.object()
                        .string("text", "The message to send", true)
                        .string("channel", "The channel to send on (default: this conversation's channel)", false)
                        .string("to", "The chat on that channel (default: this conversation)", false)
                        .object(
                                "payload",
                                "A platform-native payload sent with the text as it is (e.g. a card); "
                                        + "only channels that carry one"));
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        try {
            ToolArguments args = ToolArguments.of(arguments);
            String text = args.requiredString("text");
            if (text.isBlank()) return ToolResult.error("text is empty; nothing to send");
            JsonNode payload = args.optionalObject("payload");
            return ToolResult.ok(context.messages()
                    .send(
                            args.optionalString("channel", null),
                            args.optionalString("to", null),
                            text,
                            payload == null ? null : payload.toString()));
        } catch (RefusedException | IllegalArgumentException e) {
            return ToolResult.error(e.getMessage());
        }
    }
}

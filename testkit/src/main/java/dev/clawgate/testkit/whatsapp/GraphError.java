package dev.clawgate.testkit.whatsapp;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A Cloud API error ("WhatsApp error codes"; Graph API "Handling errors"): answered synchronously in Graph's envelope
 * {@code {"error":{"message","type","code","error_data":{"messaging_product",
 * "details"},"error_subcode","fbtrace_id"}}}, or asynchronously as the {@code errors} of a {@code failed} status
 * webhook. The HTTP statuses are those of Meta's error-code table.
 *
 * @param subcode {@code error_subcode}, or null when Graph sends none
 */
public record GraphError(int httpStatus, int code, Integer subcode, String type, String title, String details) {

    /** 131047: more than 24 hours since the customer last wrote (the customer-service window is closed). */
    public static GraphError reEngagement() {
        return new GraphError(
                400,
                131047,
                null,
                "OAuthException",
                "Re-engagement message",
                "Message failed to send because more than 24 hours have passed since the customer last replied "
                        + "to this number.");
    }

    /** 130429: the phone number's throughput (messages per second) was exceeded. */
    public static GraphError throughputLimit() {
        return new GraphError(
                400,
                130429,
                2494055,
                "OAuthException",
                "Rate limit hit",
                "Message failed to send because there were too many messages sent from this phone number "
                        + "in a short period of time");
    }

    /** 131056: too many messages from the business to the same customer in a short time. */
    public static GraphError pairRateLimit() {
        return new GraphError(
                400,
                131056,
                null,
                "OAuthException",
                "(Business Account, Consumer Account) pair rate limit hit",
                "Message failed to send because there were too many messages sent from this phone number "
                        + "to the same phone number "
                        + "in a short period of time.");
    }

    /** 4: the app's Graph API call limit. */
    public static GraphError appCallLimit() {
        return new GraphError(
                429,
                4,
                null,
                "OAuthException",
                "Application request limit reached",
                "The app has reached its API call rate limit.");
    }

    /** 190: the access token expired or was invalidated (subcode 463: expired session). */
    public static GraphError tokenExpired() {
        return new GraphError(
                401,
                190,
                463,
                "OAuthException",
                "Error validating access token: Session has expired",
                "Access token has expired");
    }

    /** 131026: the recipient cannot receive the message (not on WhatsApp, old client...). */
    public static GraphError undeliverable() {
        return new GraphError(400, 131026, null, "OAuthException", "Message undeliverable", "Message Undeliverable.");
    }

    /** 100: a missing, misspelled or out-of-range parameter. */
    public static GraphError invalidParameter(String details) {
        return new GraphError(400, 100, null, "OAuthException", "Invalid parameter", details);
    }

    /** The {@code message} as Graph writes it: {@code (#code) title}. */
    public String message() {
        return "(#" + code + ") " + title;
    }

    /** The synchronous answer body. */
    public ObjectNode envelope(String fbtraceId) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode e = root.putObject("error")
                .put("message", message())
                .put("type", type)
                .put("code", code);
        e.putObject("error_data").put("messaging_product", "whatsapp").put("details", details);
        if (subcode != null) e.put("error_subcode", subcode);
        e.put("fbtrace_id", fbtraceId);
        return root;
    }

    /** One entry of a webhook's {@code errors} array. */
    public ObjectNode webhookError() {
        ObjectNode e = JsonNodeFactory.instance
                .objectNode()
                .put("code", code)
                .put("title", title)
                .put("message", title);
        e.putObject("error_data").put("details", details);
        e.put("href", "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/");
        return e;
    }
}

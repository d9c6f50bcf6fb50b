package dev.clawgate.testkit.slack;

import java.util.List;

/**
 * A Web API failure: {@code {"ok":false,"error":"<code>"}}, answered with HTTP 200 as Slack does for everything but
 * rate limits (docs.slack.dev/apis/web-api, "Evaluating responses").
 */
final class SlackApiError extends Exception {
    final String code;
    final List<String> messages;

    SlackApiError(String code) {
        this(code, List.of());
    }

    SlackApiError(String code, List<String> messages) {
        super(code, null, false, false);
        this.code = code;
        this.messages = List.copyOf(messages);
    }
}

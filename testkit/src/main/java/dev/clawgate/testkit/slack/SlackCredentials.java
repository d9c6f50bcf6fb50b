package dev.clawgate.testkit.slack;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A fresh app's secrets, shaped like Slack's: a bot token {@code xoxb-...}, an app-level token {@code xapp-1-<app
 * id>-...}, the signing secret, and the legacy verification token sent in events.
 */
record SlackCredentials(String botToken, String appToken, String signingSecret, String verificationToken) {
    static SlackCredentials fresh(String appId) {
        return new SlackCredentials(
                "xoxb-" + digits(12) + "-" + digits(13) + "-" + hex(12),
                "xapp-1-" + appId + "-" + digits(13) + "-" + hex(32),
                hex(16),
                hex(12));
    }

    private static String digits(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(ThreadLocalRandom.current().nextInt(10));
        return b.toString();
    }

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}

package dev.clawgate.channel.matrix;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * One bot login on a homeserver, as {@code [channels.matrix]} describes it (SPEC CH-6).
 *
 * @param homeserver the client-server API base URL, e.g. {@code https://matrix.example.org}
 * @param accessToken the bot's access token (a secret: never logged)
 * @param userId the bot's {@code @user:server}; null when the config leaves it to {@code whoami}
 * @param autoJoin which invites the bot accepts
 * @param allowedUsers the access list, read for {@code auto_join = "allowlist"}
 * @param allowedGroups the room list, read for {@code auto_join = "allowlist"}
 * @param preview {@code stream_mode = "preview"}: a draft edited ({@code m.replace}) while the reply is written
 * @param textLimit the longest text body sent, in characters
 */
record MatrixAccount(
        String id,
        URI homeserver,
        String accessToken,
        String userId,
        AutoJoin autoJoin,
        List<String> allowedUsers,
        List<String> allowedGroups,
        boolean preview,
        boolean ackReactions,
        int textLimit,
        Duration callTimeout) {
    /** A body this long, with its HTML twin, stays well inside Matrix's 64 KiB event limit. */
    static final int MAX_TEXT = 8000;

    static final int DEFAULT_TEXT = 4000;
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Which invites are accepted: every one, those from {@code allowed_users} or to {@code allowed_groups}, or none.
     */
    enum AutoJoin {
        ALWAYS,
        ALLOWLIST,
        OFF
    }

    MatrixAccount {
        allowedUsers = List.copyOf(allowedUsers);
        allowedGroups = List.copyOf(allowedGroups);
    }

    /** Whether an invite from {@code inviter} to {@code roomId} is accepted. */
    boolean accepts(String inviter, String roomId) {
        return switch (autoJoin) {
            case ALWAYS -> true;
            case OFF -> false;
            case ALLOWLIST ->
                allowedUsers.contains("*") || allowedUsers.contains(inviter) || allowedGroups.contains(roomId);
        };
    }

    @Override
    public String toString() {
        return "MatrixAccount[" + id + ", " + homeserver + ", " + userId + "]"; // never the token
    }
}

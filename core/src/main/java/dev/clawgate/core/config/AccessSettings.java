package dev.clawgate.core.config;

import java.util.List;

/**
 * Who may talk to the agent on one channel account (SPEC IN-5): {@code [channels.<ch>]} and
 * {@code [channels.<ch>.accounts.<id>]}.
 */
public record AccessSettings(
        DmPolicy dmPolicy,
        List<String> allowedUsers,
        GroupPolicy groupPolicy,
        List<String> allowedGroups,
        boolean requireMention) {
    public AccessSettings {
        allowedUsers = allowedUsers == null ? List.of() : List.copyOf(allowedUsers);
        allowedGroups = allowedGroups == null ? List.of() : List.copyOf(allowedGroups);
    }

    public static AccessSettings defaults() {
        return new AccessSettings(DmPolicy.PAIRING, List.of(), GroupPolicy.ALLOWLIST, List.of(), true);
    }
}

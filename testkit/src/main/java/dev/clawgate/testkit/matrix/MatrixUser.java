package dev.clawgate.testkit.matrix;

/** A user of the fake homeserver, {@code @localpart:server}. */
public record MatrixUser(String userId, String displayName) {
    public String localpart() {
        return userId.substring(1, userId.indexOf(':'));
    }
}

package dev.clawgate.testkit.matrix;

/**
 * One login of the bot: an access token bound to a device. Transaction ids are scoped to the device (Client-Server API,
 * "Transaction identifiers"), so a refreshed token of the same device keeps its transactions and a new login does not.
 */
public record Login(String accessToken, String deviceId, String userId) {
    @Override
    public String toString() {
        return "Login[device=" + deviceId + ", user=" + userId + "]"; // never the token
    }
}

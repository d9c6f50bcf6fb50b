package dev.clawgate.testkit.discord;

/**
 * One WebSocket connection to the fake Gateway.
 *
 * @param path {@code /} for the URL of GET /gateway/bot, {@code /resume} for READY's resume_gateway_url
 * @param closeCode the close code, -1 while open, 1006 for a connection lost without a close frame
 * @param closedByClient whether the app closed it (else the fake did, or it is open)
 */
public record GatewayConnection(int number, String path, String query, int closeCode, boolean closedByClient) {}

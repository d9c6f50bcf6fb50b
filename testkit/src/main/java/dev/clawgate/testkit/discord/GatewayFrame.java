package dev.clawgate.testkit.discord;

/**
 * One payload an app sent to the fake Gateway, its token redacted.
 *
 * @param connection which connection carried it: 1 for the first the fake accepted, 2 for the next...
 * @param op the payload's opcode (developers/topics/opcodes-and-status-codes, "Gateway Opcodes")
 */
public record GatewayFrame(int connection, int op, String json) {
    /** The opcode's name in the call log ({@code GATEWAY IDENTIFY}, ...). */
    static String opName(int op) {
        return switch (op) {
            case 1 -> "HEARTBEAT";
            case 2 -> "IDENTIFY";
            case 3 -> "PRESENCE_UPDATE";
            case 6 -> "RESUME";
            default -> "OP " + op;
        };
    }
}

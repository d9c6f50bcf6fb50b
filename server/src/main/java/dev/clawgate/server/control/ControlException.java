package dev.clawgate.server.control;

/** A control API request that cannot be answered as asked: its HTTP status and a message for the operator. */
public final class ControlException extends RuntimeException {
    private final int status;

    public ControlException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    static ControlException notFound(String message) {
        return new ControlException(404, message);
    }

    static ControlException badRequest(String message) {
        return new ControlException(400, message);
    }
}

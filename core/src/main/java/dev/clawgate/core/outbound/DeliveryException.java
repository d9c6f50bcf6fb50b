package dev.clawgate.core.outbound;

/** A send the platform refused or that could not reach it. */
public class DeliveryException extends Exception {
    private final boolean permanent;

    public DeliveryException(String message, boolean permanent, Throwable cause) {
        super(message, cause);
        this.permanent = permanent;
    }

    /** True when retrying cannot help (chat not found, bot blocked). */
    public boolean permanent() {
        return permanent;
    }
}

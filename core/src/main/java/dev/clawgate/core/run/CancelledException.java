package dev.clawgate.core.run;

/** Thrown where a cancelled run notices its cancellation (SPEC AG-2). */
public final class CancelledException extends RuntimeException {
    public CancelledException(String reason) {
        super(reason, null, false, false);
    }
}

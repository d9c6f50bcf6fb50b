package dev.clawgate.core.store;

/** The store could not do what was asked (disk full, database down, constraint broken). */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}

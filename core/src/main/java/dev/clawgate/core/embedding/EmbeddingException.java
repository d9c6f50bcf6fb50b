package dev.clawgate.core.embedding;

/**
 * An embedding could not be computed (the model failed to load or run, a remote API refused): recall goes on by keyword
 * alone.
 */
public final class EmbeddingException extends Exception {
    public EmbeddingException(String message) {
        super(message);
    }

    public EmbeddingException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.clawgate.testkit.whatsapp;

/** A {@link GraphError} thrown through the request handling. */
final class GraphFailure extends Exception {
    final GraphError error;

    GraphFailure(GraphError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }
}

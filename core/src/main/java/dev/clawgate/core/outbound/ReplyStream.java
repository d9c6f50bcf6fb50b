package dev.clawgate.core.outbound;

/** Receives a turn's reply text as it is generated, already sanitised, for channels that stream. */
public interface ReplyStream {
    ReplyStream NONE = delta -> { };

    void delta(String text);
}

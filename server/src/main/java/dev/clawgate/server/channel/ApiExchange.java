package dev.clawgate.server.channel;

import dev.clawgate.core.outbound.TurnOutcome;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** One waiting {@code /v1/chat/completions} request: the events its turn produces, in order. */
final class ApiExchange {
    sealed interface Event permits Delta, Notice, Final, Ended {}

    record Delta(String text) implements Event {}

    record Notice(String text) implements Event {}

    record Final(String text) implements Event {}

    record Ended(TurnOutcome outcome) implements Event {}

    final String messageId;
    final boolean stream;
    /** Bounded by one turn's output; emptied by the waiting request thread. */
    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    ApiExchange(String messageId, boolean stream) {
        this.messageId = messageId;
        this.stream = stream;
    }
}

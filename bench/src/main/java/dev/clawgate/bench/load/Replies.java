package dev.clawgate.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import java.util.List;
import java.util.function.LongConsumer;

/** Sees what the bot sends and files each reply under the message it names. */
final class Replies implements FakeTelegramServer.CallObserver {
    private final List<ReplyLedger> ledgers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile ReplyLedger current;
    private volatile LongConsumer onFirstReply = n -> {};
    private final java.util.concurrent.atomic.AtomicInteger total = new java.util.concurrent.atomic.AtomicInteger();

    int total() {
        return total.get();
    }

    void phase(ReplyLedger ledger, LongConsumer firstReply) {
        ledgers.add(ledger);
        onFirstReply = firstReply;
        current = ledger;
    }

    @Override
    public void answered(String method, JsonNode result) {
        if (!method.equals("sendMessage")) return;
        long now = System.nanoTime();
        total.incrementAndGet();
        long tag = ReplyLedger.tagOf(result.path("text").asText());
        for (ReplyLedger l : ledgers) {
            if (l.owns(tag)) {
                if (l.replied(tag, now) && l == current) onFirstReply.accept(tag);
                return;
            }
        }
        ReplyLedger c = current;
        if (c != null) c.stray();
    }
}

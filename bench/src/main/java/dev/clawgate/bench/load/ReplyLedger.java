package dev.clawgate.bench.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One phase's messages, numbered {@code first} to {@code first + count - 1}: when each went to the fake, and every
 * reply the bot sent for it (SPEC OUT-12: exactly one). Each message text starts with its tag {@code #<number>}; the
 * echo model and the echo bot repeat the text, so the reply names the message it answers. Thread-safe: the sender
 * writes, the fake's request threads record replies.
 */
final class ReplyLedger {
    private final long first;
    private final int count;
    private final AtomicLongArray sentAt;
    private final AtomicLongArray firstReplyAt;
    private final AtomicIntegerArray replies;
    // 1 once a message is answered or given up on (its reply lost to a kill): the closed loop may go on past it
    private final AtomicIntegerArray settled;
    private final AtomicInteger strays = new AtomicInteger();
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger givenUp = new AtomicInteger();
    private final CountDownLatch allAnswered;
    private final CountDownLatch allSettled;

    ReplyLedger(long first, int count) {
        if (count < 1) throw new IllegalArgumentException("a phase needs at least one message, got " + count);
        this.first = first;
        this.count = count;
        this.sentAt = new AtomicLongArray(count);
        this.firstReplyAt = new AtomicLongArray(count);
        this.replies = new AtomicIntegerArray(count);
        this.settled = new AtomicIntegerArray(count);
        this.allAnswered = new CountDownLatch(count);
        this.allSettled = new CountDownLatch(count);
    }

    int count() {
        return count;
    }

    long first() {
        return first;
    }

    /**
     * The text of message {@code number} from user {@code user}: tag first, then enough words to be a memory worth
     * saving.
     */
    static String text(long number, int user, boolean brief) {
        if (brief) return "#" + number + " hi u" + user;
        return "#" + number + " from user " + user + ": what is a good name for a small gray cat?";
    }

    /** The tag's number at the start of a reply, or -1 when the reply carries none. */
    static long tagOf(String text) {
        int hash = text.indexOf('#');
        if (hash < 0 || hash > 16) return -1;
        long n = 0;
        int i = hash + 1;
        for (; i < text.length() && Character.isDigit(text.charAt(i)); i++) n = n * 10 + (text.charAt(i) - '0');
        return i == hash + 1 ? -1 : n;
    }

    boolean owns(long number) {
        return number >= first && number < first + count;
    }

    /** Records that {@code number} went to the fake; false when it already had (each message is sent once). */
    boolean sent(long number, long nanos) {
        return sentAt.compareAndSet(index(number), 0, nanos);
    }

    /** Records a reply to {@code number}; true when it is that message's first. */
    boolean replied(long number, long nanos) {
        int i = index(number);
        if (replies.getAndIncrement(i) != 0) return false;
        firstReplyAt.set(i, nanos);
        answered.incrementAndGet();
        allAnswered.countDown();
        if (settled.compareAndSet(i, 0, 1)) allSettled.countDown();
        return true;
    }

    /**
     * Gives up on an unanswered message whose reply the gateway itself lists as lost (a kill test:
     * {@code unknown_after_send}); true when it was still unanswered and not given up on before. A reply that comes
     * later is still counted.
     */
    boolean giveUp(long number) {
        int i = index(number);
        if (replies.get(i) != 0 || !settled.compareAndSet(i, 0, 1)) return false;
        givenUp.incrementAndGet();
        allSettled.countDown();
        return true;
    }

    /** Messages sent at or before {@code sentBefore} (nanos) that have neither a reply nor been given up on. */
    List<Long> waiting(long sentBefore) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long sent = sentAt.get(i);
            if (sent != 0 && sent - sentBefore <= 0 && settled.get(i) == 0) out.add(first + i);
        }
        return out;
    }

    /** Answered messages plus those given up on. */
    int settledCount() {
        return answered.get() + givenUp.get();
    }

    /** Waits until every message is answered or given up on; false when {@code timeout} passed first. */
    boolean awaitSettled(Duration timeout) throws InterruptedException {
        return allSettled.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** A reply that names no message of this phase (an error text, a notice, a reply to another phase). */
    void stray() {
        strays.incrementAndGet();
    }

    int answered() {
        return answered.get();
    }

    /** Waits until every message has a reply; false when {@code timeout} passed first. */
    boolean awaitAll(Duration timeout) throws InterruptedException {
        return allAnswered.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * What the phase came to: latencies of the answered messages and every message that did not get exactly one reply.
     */
    Outcome outcome() {
        long[] latencies = new long[count];
        int n = 0;
        long firstSent = Long.MAX_VALUE, lastReply = Long.MIN_VALUE;
        List<Long> missing = new ArrayList<>(), duplicated = new ArrayList<>(), unsent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int r = replies.get(i);
            long sent = sentAt.get(i);
            if (sent != 0) firstSent = Math.min(firstSent, sent);
            if (r == 0) {
                (sent == 0 ? unsent : missing).add(first + i);
                continue;
            }
            if (r > 1) duplicated.add(first + i);
            long at = firstReplyAt.get(i);
            lastReply = Math.max(lastReply, at);
            latencies[n++] = at - sent;
        }
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        return new Outcome(
                count, sorted, missing, unsent, duplicated, strays.get(), n == 0 ? 0 : lastReply - firstSent);
    }

    private int index(long number) {
        if (!owns(number)) throw new IllegalArgumentException("message " + number + " is not in this phase");
        return (int) (number - first);
    }

    /**
     * @param latenciesNanos send-to-first-reply of each answered message, sorted
     * @param missing sent, never answered
     * @param unsent never sent: in a closed loop, the user's earlier message was not answered
     * @param spanNanos from the first send to the last first reply
     */
    record Outcome(
            int messages,
            long[] latenciesNanos,
            List<Long> missing,
            List<Long> unsent,
            List<Long> duplicated,
            int strays,
            long spanNanos) {
        boolean everyMessageAnsweredOnce() {
            return missing.isEmpty() && unsent.isEmpty() && duplicated.isEmpty() && strays == 0;
        }

        /** Replies per second over the span. */
        double throughput() {
            return spanNanos == 0 ? 0 : latenciesNanos.length * 1e9 / spanNanos;
        }

        /** The {@code p}-th percentile latency (0..100) in milliseconds, nearest rank. */
        double percentileMillis(double p) {
            if (latenciesNanos.length == 0) return Double.NaN;
            int rank = (int) Math.ceil(p / 100 * latenciesNanos.length);
            return latenciesNanos[Math.clamp(rank - 1, 0, latenciesNanos.length - 1)] / 1e6;
        }

        String problems() {
            return "missing " + missing.size() + (missing.isEmpty() ? "" : " " + head(missing))
                    + ", never sent (an earlier one of"
                    + " the user unanswered) " + unsent.size() + ", answered more than once "
                    + duplicated.size() + (duplicated.isEmpty() ? "" : " " + head(duplicated))
                    + ", replies naming no message " + strays;
        }

        private static List<Long> head(List<Long> l) {
            return l.subList(0, Math.min(10, l.size()));
        }
    }
}

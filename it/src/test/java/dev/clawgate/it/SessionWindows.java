package dev.clawgate.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Watches runs per session from outside the gateway: a run's window opens when its model request arrives at the fake
 * model and closes when its reply arrives at the fake platform. Two open windows of one session are two active runs
 * (SPEC DI-2); sequence numbers out of order are a reordered session.
 */
final class SessionWindows {
    /** The scripted text: "note SEQ from SENDER (ID)". */
    private static final Pattern NOTE = Pattern.compile("note (\\d+) from (user-\\d+) \\(");

    record Note(String sender, int seq) {}

    private final Map<String, Integer> open = new ConcurrentHashMap<>();
    private final Map<String, List<Integer>> requested = new ConcurrentHashMap<>();
    private final Map<String, List<Integer>> replied = new ConcurrentHashMap<>();
    private final List<String> overlaps = new CopyOnWriteArrayList<>();
    private final AtomicInteger openNow = new AtomicInteger();
    private final AtomicInteger maxOpen = new AtomicInteger();

    /** The last note in {@code text} (the current message when history is merged in). */
    static Note note(String text) {
        if (text == null) return null;
        Matcher m = NOTE.matcher(text);
        Note last = null;
        while (m.find()) last = new Note(m.group(2), Integer.parseInt(m.group(1)));
        return last;
    }

    void modelRequest(String lastUserText) {
        Note n = note(lastUserText);
        if (n == null) throw new AssertionError("a model request without a scripted note: " + lastUserText);
        Integer already = open.putIfAbsent(n.sender(), n.seq());
        if (already != null)
            overlaps.add(n.sender() + ": run for note " + n.seq() + " started while note " + already + " was running");
        else maxOpen.accumulateAndGet(openNow.incrementAndGet(), Math::max);
        requested.computeIfAbsent(n.sender(), k -> new CopyOnWriteArrayList<>()).add(n.seq());
    }

    void reply(String text) {
        Note n = note(text);
        if (n == null) throw new AssertionError("a reply without a scripted note: " + text);
        if (open.remove(n.sender(), n.seq())) openNow.decrementAndGet();
        replied.computeIfAbsent(n.sender(), k -> new CopyOnWriteArrayList<>()).add(n.seq());
    }

    List<String> overlaps() {
        return List.copyOf(overlaps);
    }

    /** Most sessions with a run open at the same moment. */
    int maxConcurrentSessions() {
        return maxOpen.get();
    }

    /** Senders whose model requests or replies did not come in script order 0, 1, 2, ... */
    List<String> outOfOrder(int perSender) {
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < perSender; i++) expected.add(i);
        List<String> bad = new ArrayList<>();
        for (var e : requested.entrySet())
            if (!e.getValue().equals(expected)) bad.add(e.getKey() + " requests " + e.getValue());
        for (var e : replied.entrySet())
            if (!e.getValue().equals(expected)) bad.add(e.getKey() + " replies " + e.getValue());
        return bad;
    }

    int sessionsSeen() {
        return requested.size();
    }
}

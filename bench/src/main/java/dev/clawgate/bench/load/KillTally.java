package dev.clawgate.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a kill test came to (SPEC OUT-12: no message answered twice; OUT-7: a reply the kill cut off is listed
 * {@code unknown_after_send}, for the operator's {@code clawgate outbox}, not lost in silence). A message without a
 * reply passes only when the stopped gateway's store lists it in one of the states {@code clawgate outbox} shows as
 * needing a look.
 *
 * @param downtimesMs per kill, SIGKILL to the new process answering {@code /readyz}
 * @param answeredOnce messages with exactly one reply
 * @param answeredOnceListedUnknown of those, the ones whose reply the store lists {@code unknown_after_send}: it
 *     reached the fake just before the kill, and the gateway rightly did not resend it
 * @param listedUnknown messages without a reply whose reply the store lists {@code unknown_after_send}
 * @param listedOther messages without a reply listed in another state {@code clawgate outbox} shows, by state
 * @param duplicated messages answered more than once (must be none)
 * @param unlisted messages without a reply the store does not account for (must be none)
 * @param unsent messages never sent: a user stalled behind a reply that never came and was never listed
 * @param notes what the store says about each duplicated and unlisted message (at most 20)
 */
record KillTally(
        KillSchedule schedule,
        List<Double> downtimesMs,
        int messages,
        int answeredOnce,
        int answeredOnceListedUnknown,
        int listedUnknown,
        Map<String, Integer> listedOther,
        List<Long> duplicated,
        List<Long> unlisted,
        int unsent,
        int strays,
        List<String> notes) {
    static final String UNKNOWN_AFTER_SEND = "unknown_after_send";
    /**
     * The outbox states {@code clawgate outbox} lists as needing a look that end a reply's sending (pending would still
     * go out).
     */
    private static final Set<String> LISTED =
            Set.of(UNKNOWN_AFTER_SEND, "failed", "partial_failed", "expired", "possibly_duplicated");

    /** Whether {@code clawgate outbox} shows a reply in this outbox state as given up (null: no outbox entry). */
    static boolean listed(String outboxState) {
        return outboxState != null && LISTED.contains(outboxState);
    }

    KillTally {
        downtimesMs = List.copyOf(downtimesMs);
        listedOther = Map.copyOf(listedOther);
        duplicated = List.copyOf(duplicated);
        unlisted = List.copyOf(unlisted);
        notes = List.copyOf(notes);
    }

    static KillTally of(
            KillSchedule schedule,
            List<Double> downtimesMs,
            ReplyLedger ledger,
            ReplyLedger.Outcome o,
            Map<Long, GatewayAudit.Entry> store) {
        Set<Long> missing = Set.copyOf(o.missing());
        Set<Long> duplicated = Set.copyOf(o.duplicated());
        Set<Long> unsent = Set.copyOf(o.unsent());
        int once = 0, onceUnknown = 0, listedUnknown = 0;
        Map<String, Integer> other = new TreeMap<>();
        List<Long> unlisted = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (long n = ledger.first(); n < ledger.first() + ledger.count(); n++) {
            GatewayAudit.Entry e = store.get(n);
            String state = e == null ? null : e.outboxState();
            if (missing.contains(n)) {
                if (UNKNOWN_AFTER_SEND.equals(state)) listedUnknown++;
                else if (listed(state)) other.merge(state, 1, Integer::sum);
                else {
                    unlisted.add(n);
                    note(notes, "#" + n + " no reply: " + (e == null ? "not in the gateway's inbox" : e.describe()));
                }
            } else if (duplicated.contains(n)) {
                note(
                        notes,
                        "#" + n + " answered twice or more: "
                                + (e == null ? "not in the gateway's inbox" : e.describe()));
            } else if (!unsent.contains(n)) {
                once++;
                if (UNKNOWN_AFTER_SEND.equals(state)) onceUnknown++;
            }
        }
        return new KillTally(
                schedule,
                downtimesMs,
                ledger.count(),
                once,
                onceUnknown,
                listedUnknown,
                other,
                o.duplicated(),
                unlisted,
                o.unsent().size(),
                o.strays(),
                notes);
    }

    /**
     * Every kill done (a kill test that did not kill proves nothing), no duplicate, no message unaccounted for, no
     * stray reply.
     */
    boolean passed() {
        return kills() == schedule.kills() && duplicated.isEmpty() && unlisted.isEmpty() && unsent == 0 && strays == 0;
    }

    int kills() {
        return downtimesMs.size();
    }

    int listedOtherCount() {
        return listedOther.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static void note(List<String> notes, String line) {
        if (notes.size() < 20) notes.add(line);
    }
}

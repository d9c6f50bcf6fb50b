package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The part every channel's kill test shares (SPEC OUT-7, OUT-12, IN-4): the gateway is killed with SIGKILL at evenly
 * spaced points of the load and restarted on the same data dir; afterwards each tagged user message is counted as
 * answered once, answered twice or more, listed by the store (reply {@code unknown_after_send}, or turn failed), or
 * lost. What differs per channel (how people write, what counts as a reply, when a run has settled) stays in the test.
 */
final class KillRun {
    private KillRun() {}

    /**
     * Kills the running gateway {@code kills} times, the k-th once {@code replies} has reached k/(kills+1) of
     * {@code total}, each time starting it again; returns the process last started. A gateway that dies by itself, or
     * that makes no progress within {@code patience}, fails the test.
     */
    static Process killAtShares(
            ChildGateway child, Process first, int kills, int total, Duration patience, Callable<Integer> replies)
            throws Exception {
        Process p = first;
        for (int k = 1; k <= kills; k++) {
            int threshold = total * k / (kills + 1);
            Process running = p;
            await().atMost(patience).until(() -> replies.call() >= threshold || !running.isAlive());
            if (!p.isAlive()) throw new AssertionError("the gateway died by itself:\n" + child.logTail(40));
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            p = child.start(null, null);
        }
        return p;
    }

    /** How many replies carry each message's tag; replies without a tag are not counted. */
    static Map<String, Integer> repliesPerTag(Collection<String> replyTexts) {
        Map<String, Integer> perTag = new HashMap<>();
        for (String text : replyTexts) {
            String tag = KillAudit.tagOf(text);
            if (!tag.isEmpty()) perTag.merge(tag, 1, Integer::sum);
        }
        return perTag;
    }

    /** The tag of the n-th message sent round-robin over {@code users}: {@code msg-<user>-<round>}. */
    static String tag(int n, int users) {
        return "msg-" + (n % users) + "-" + (n / users);
    }

    /** How the {@code total} messages of a run ended. */
    record Tally(int total, int once, int duplicates, int listed, List<String> unexplained) {
        /** Counts each message against its replies and, when it has none, the store's lists in {@code audit}. */
        static Tally of(int users, int total, Map<String, Integer> repliesPerTag, KillAudit.Audit audit) {
            int once = 0, duplicates = 0, listed = 0;
            List<String> unexplained = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                String tag = tag(i, users);
                int n = repliesPerTag.getOrDefault(tag, 0);
                if (n == 1) once++;
                else if (n > 1) duplicates++;
                else if (audit.unknown().contains(tag) || audit.failed().contains(tag)) listed++;
                else unexplained.add(tag);
            }
            return new Tally(total, once, duplicates, listed, List.copyOf(unexplained));
        }

        int missing() {
            return unexplained.size();
        }

        /**
         * The report's common lines: the counts, the store's lists, the outbox at the end; {@code extra} after them.
         */
        String report(String title, KillAudit.Audit audit, String... extra) {
            StringBuilder out = new StringBuilder(title).append('\n');
            out.append("- answered exactly once: ").append(once).append('\n');
            out.append("- answered twice or more: ").append(duplicates).append('\n');
            out.append("- no reply, listed (reply unknown_after_send: %d, turn failed after two cut runs: %d): %d\n"
                    .formatted(audit.unknown().size(), audit.failed().size(), listed));
            out.append("- no reply and not listed: ")
                    .append(missing())
                    .append(' ')
                    .append(unexplained.size() > 20 ? unexplained.subList(0, 20) + "…" : unexplained)
                    .append('\n');
            for (String line : extra) out.append("- ").append(line).append('\n');
            out.append("- outbox at the end: ").append(audit.outboxCounts()).append('\n');
            return out.toString();
        }

        /** None answered twice, none lost: every message answered once or listed. */
        void assertNoneTwiceNoneLost(String report) {
            assertThat(duplicates).as(report).isZero();
            assertThat(missing()).as(report).isZero();
            assertThat(once + listed).as(report).isEqualTo(total);
        }
    }
}

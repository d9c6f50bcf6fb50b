package dev.clawgate.it;

import dev.clawgate.core.store.InboxState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a crash-recovery run saw, as the markdown that goes into bench/RESULTS.md. */
record Report(
        InboxAudit audit,
        List<CrashRecoveryIT.Round> rounds,
        List<String> plan,
        int messagesWithFinalReply,
        long doneWithoutReply) {

    void write(
            Path file,
            int messages,
            int senders,
            int killsPerPoint,
            int randomKills,
            long seed,
            ChildGateway.Mode mode,
            int modelCalls,
            long platformPosts,
            long totalMillis)
            throws IOException {
        Map<InboxState, Long> states = audit.states();
        StringBuilder sb = new StringBuilder();
        sb.append("messages=")
                .append(messages)
                .append(" senders=")
                .append(senders)
                .append(" killsPerPoint=")
                .append(killsPerPoint)
                .append(" randomKills=")
                .append(randomKills)
                .append(" seed=")
                .append(seed)
                .append(" child=")
                .append(mode)
                .append('\n');
        sb.append(roundsTable(rounds)).append('\n');
        sb.append("- inbox records: ")
                .append(audit.records().size())
                .append(" for ")
                .append(messages)
                .append(" messages; states ")
                .append(states)
                .append('\n');
        sb.append("- runs re-run after a kill (attempts = 2): ")
                .append(audit.reRuns())
                .append("; of them failed after a second cut: ")
                .append(states.getOrDefault(InboxState.FAILED, 0L))
                .append("; max attempts ")
                .append(audit.maxAttempts())
                .append('\n');
        sb.append("- messages with exactly one final reply: ")
                .append(messagesWithFinalReply)
                .append("; with two or more: 0")
                .append("; done without a reply: ")
                .append(doneWithoutReply)
                .append(" (all among the outbox's unknown_after_send: cut mid-send, not resent)")
                .append('\n');
        sb.append("- outbox: ")
                .append(audit.outboxStates())
                .append("; unknown_after_send turns: ")
                .append(audit.unknownAfterSend().size())
                .append('\n');
        sb.append("- model calls: ")
                .append(modelCalls)
                .append("; platform posts (retries included): ")
                .append(platformPosts)
                .append('\n');
        sb.append("- wall time: ")
                .append(totalMillis / 1000)
                .append(" s over ")
                .append(rounds.size())
                .append(" gateway processes\n");
        sb.append('\n').append(roundList(rounds));
        publish(file, "crash recovery", sb.toString());
    }

    /** Per armed point: how many rounds, how many of them halted. */
    static String roundsTable(List<CrashRecoveryIT.Round> rounds) {
        Map<String, int[]> perPoint = new LinkedHashMap<>();
        for (CrashRecoveryIT.Round r : rounds) {
            String point = r.armed().split("[: ]")[0];
            int[] c = perPoint.computeIfAbsent(point, k -> new int[2]);
            c[0]++;
            if (r.halted()) c[1]++;
        }
        StringBuilder sb = new StringBuilder("| armed | rounds | halted (exit 137) |\n|---|---|---|\n");
        perPoint.forEach((p, c) -> sb.append("| ")
                .append(p)
                .append(" | ")
                .append(c[0])
                .append(" | ")
                .append(c[1])
                .append(" |\n"));
        return sb.toString();
    }

    /** Every round on one line: what was armed, the exit status, how long the process lived. */
    static String roundList(List<CrashRecoveryIT.Round> rounds) {
        StringBuilder sb = new StringBuilder("rounds: ");
        for (CrashRecoveryIT.Round r : rounds) {
            sb.append(r.armed())
                    .append(" -> ")
                    .append(r.exit())
                    .append(" (")
                    .append(r.millis())
                    .append(" ms); ");
        }
        return sb.append('\n').toString();
    }

    /** Writes the report beside the run's data and prints it into the failsafe output. */
    static void publish(Path file, String title, String markdown) throws IOException {
        Files.writeString(file, markdown);
        System.out.println("==== " + title + " report (" + file + ")\n" + markdown);
    }
}

package dev.clawgate.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/** A {@link LoadResult} as text for the console, as a Markdown table row, and as one JSON line. */
final class LoadReport {
    static final String TABLE_HEADER = "| run | bot | loop | messages / users | replies/s | p50 ms | p95 ms | p99 ms"
            + " | added p50 / p99 ms | first poll ms | ready ms | idle RSS MiB | peak RSS MiB | CPU ms/msg | load avg"
            + " | every message once |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";

    private LoadReport() {}

    static String text(LoadResult r) {
        ReplyLedger.Outcome o = r.outcome();
        StringBuilder b = new StringBuilder();
        b.append(f(
                "Load run \"%s\": %s, %s loop%s, %d messages from %d users (after %d warm-up), model delay %.0f ms%n",
                r.label(),
                r.bot(),
                r.mode(),
                r.mode().equals("open") ? f(" at %.0f/s", r.rate()) : "",
                r.messages(),
                r.users(),
                r.warmup(),
                r.modelDelayMs()));
        if (r.kills() != null) {
            kills(b, r);
        } else {
            b.append(f(
                    "  every message answered exactly once: %s%n",
                    r.passed()
                            ? "yes"
                            : "NO — " + o.problems()
                                    + (r.warmupOutcome() == null
                                                    || r.warmupOutcome().everyMessageAnsweredOnce()
                                            ? ""
                                            : "; warm-up: " + r.warmupOutcome().problems())));
        }
        for (String line : r.audit()) b.append("    ").append(line).append(System.lineSeparator());
        b.append(f(
                "  throughput              %.1f replies/s (first send to last reply %.2f s)%n",
                o.throughput(), o.spanNanos() / 1e9));
        b.append(f(
                "  update -> sendMessage   p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                o.percentileMillis(50), o.percentileMillis(95), o.percentileMillis(99), o.percentileMillis(100)));
        b.append(f("  minus the model's time  p50 %.2f ms, p99 %.2f ms%n", added(r, 50), added(r, 99)));
        if (r.mode().equals("open")) b.append(f("  sender behind schedule  at most %.2f ms%n", r.maxSendLagMs()));
        b.append(f(
                "  start -> first getUpdates %.0f ms, start -> ready %.0f ms%n",
                r.startToFirstPollMs(), r.startToReadyMs()));
        b.append(f(
                "  RSS idle %.1f MiB, peak %.1f MiB, at the end %.1f MiB%n",
                r.idleRssMib(), r.peakRssMib(), r.endRssMib()));
        b.append(f("  CPU of the bot          %.3f ms per message%n", r.cpuMsPerMessage()));
        b.append(f(
                "  load average            %.2f before, %.2f after (2 cores, shared with the driver and the fakes)%n",
                r.loadBefore(), r.loadAfter()));
        b.append(f("  bot JVM options         %s%n", r.jvmArgs().isEmpty() ? "(none)" : String.join(" ", r.jvmArgs())));
        if (!r.samples().isEmpty()) {
            b.append(f(
                    "  soak samples:%n    %9s %9s %9s %14s %10s %6s%n",
                    "replies", "elapsed s", "RSS MiB", "live heap MiB", "replies/s", "load"));
            for (LoadResult.SoakSample s : r.samples()) {
                b.append(f(
                        "    %9d %9.1f %9.1f %14.1f %10.1f %6.2f%n",
                        s.answered(), s.elapsedS(), s.rssMib(), s.liveHeapMib(), s.repliesPerSecond(), s.load()));
            }
        }
        if (!r.heapGrowth().isEmpty()) {
            b.append(f("  live heap growth by class, first sample to end:%n"));
            for (String g : r.heapGrowth()) b.append("    ").append(g).append(System.lineSeparator());
        }
        return b.toString();
    }

    /** The kill test's lines (SPEC OUT-7, OUT-12): the kills, then every message's fate. */
    private static void kills(StringBuilder b, LoadResult r) {
        KillTally k = r.kills();
        b.append(f("  kill test               %s%n", r.passed() ? "PASSED" : "FAILED"));
        b.append(f(
                "  kills done              %d of %d (seed %d; SIGKILL after %s replies, +%s µs), down %s ms each "
                        + "(SIGKILL to /readyz)%n",
                k.kills(),
                k.schedule().kills(),
                k.schedule().seed(),
                k.schedule().atReplies(),
                k.schedule().delayMicros(),
                k.downtimesMs().stream().map(d -> f("%.0f", d)).toList()));
        b.append(f("  messages                %d%n", k.messages()));
        b.append(f(
                "  answered once           %d (of which the store lists %d unknown_after_send: sent just before a "
                        + "kill, rightly not resent)%n",
                k.answeredOnce(), k.answeredOnceListedUnknown()));
        b.append(f("  no reply, listed unknown_after_send  %d%n", k.listedUnknown()));
        if (!k.listedOther().isEmpty()) b.append(f("  no reply, listed otherwise           %s%n", k.listedOther()));
        b.append(f(
                "  duplicates              %d (must be 0)%s%n",
                k.duplicated().size(), k.duplicated().isEmpty() ? "" : " " + head(k.duplicated())));
        b.append(f(
                "  missing and unlisted    %d (must be 0)%s%n",
                k.unlisted().size(), k.unlisted().isEmpty() ? "" : " " + head(k.unlisted())));
        if (k.unsent() > 0 || k.strays() > 0) {
            b.append(f(
                    "  never sent (a user stalled) %d, replies naming no message %d (must be 0)%n",
                    k.unsent(), k.strays()));
        }
        for (String n : k.notes()) b.append("    ").append(n).append(System.lineSeparator());
        if (r.warmupOutcome() != null && !r.warmupOutcome().everyMessageAnsweredOnce()) {
            b.append(f("  warm-up (no kills): NO — %s%n", r.warmupOutcome().problems()));
        }
    }

    private static java.util.List<Long> head(java.util.List<Long> l) {
        return l.subList(0, Math.min(10, l.size()));
    }

    static String markdownRow(LoadResult r) {
        ReplyLedger.Outcome o = r.outcome();
        return f(
                "| %s | %s | %s | %d / %d | %.0f | %.2f | %.2f | %.2f | %.2f / %.2f | %.0f | %.0f | %.1f | %.1f | "
                        + "%.3f | %.2f–%.2f | %s |%n",
                r.label(),
                r.bot(),
                r.mode().equals("open") ? f("open %.0f/s", r.rate()) : "closed",
                r.messages(),
                r.users(),
                o.throughput(),
                o.percentileMillis(50),
                o.percentileMillis(95),
                o.percentileMillis(99),
                added(r, 50),
                added(r, 99),
                r.startToFirstPollMs(),
                r.startToReadyMs(),
                r.idleRssMib(),
                r.peakRssMib(),
                r.cpuMsPerMessage(),
                r.loadBefore(),
                r.loadAfter(),
                r.kills() != null ? killCell(r) : r.passed() ? "yes" : "**no**: " + o.problems());
    }

    private static String killCell(LoadResult r) {
        KillTally k = r.kills();
        return f(
                "%s: %d kills, %d once, %d no reply listed unknown_after_send%s, %d duplicates, %d unlisted",
                r.passed() ? "kill test passed" : "**kill test failed**",
                k.kills(),
                k.answeredOnce(),
                k.listedUnknown(),
                k.listedOther().isEmpty() ? "" : ", " + k.listedOther() + " listed otherwise",
                k.duplicated().size(),
                k.unlisted().size());
    }

    static String json(LoadResult r) {
        ObjectMapper json = new ObjectMapper();
        ReplyLedger.Outcome o = r.outcome();
        ObjectNode n = json.createObjectNode()
                .put("label", r.label())
                .put("bot", r.bot())
                .put("mode", r.mode())
                .put("messages", r.messages())
                .put("users", r.users())
                .put("rate", r.rate())
                .put("warmup", r.warmup())
                .put("model_delay_ms", r.modelDelayMs())
                .put("passed", r.passed())
                .put("missing", o.missing().size())
                .put("unsent", o.unsent().size())
                .put("duplicated", o.duplicated().size())
                .put("strays", o.strays())
                .put("replies_per_s", o.throughput())
                .put("p50_ms", o.percentileMillis(50))
                .put("p95_ms", o.percentileMillis(95))
                .put("p99_ms", o.percentileMillis(99))
                .put("max_ms", o.percentileMillis(100))
                .put("added_p50_ms", added(r, 50))
                .put("added_p99_ms", added(r, 99))
                .put("start_to_first_poll_ms", r.startToFirstPollMs())
                .put("start_to_ready_ms", r.startToReadyMs())
                .put("idle_rss_mib", r.idleRssMib())
                .put("peak_rss_mib", r.peakRssMib())
                .put("end_rss_mib", r.endRssMib())
                .put("cpu_ms_per_message", r.cpuMsPerMessage())
                .put("max_send_lag_ms", r.maxSendLagMs())
                .put("load_before", r.loadBefore())
                .put("load_after", r.loadAfter());
        r.jvmArgs().forEach(n.putArray("jvm_args")::add);
        var samples = n.putArray("soak_samples");
        for (LoadResult.SoakSample s : r.samples()) {
            samples.addObject()
                    .put("answered", s.answered())
                    .put("elapsed_s", s.elapsedS())
                    .put("rss_mib", s.rssMib())
                    .put("live_heap_mib", s.liveHeapMib())
                    .put("replies_per_s", s.repliesPerSecond())
                    .put("load", s.load());
        }
        r.heapGrowth().forEach(n.putArray("heap_growth")::add);
        r.audit().forEach(n.putArray("audit")::add);
        KillTally k = r.kills();
        if (k != null) {
            ObjectNode kn = n.putObject("kill_test")
                    .put("passed", k.passed())
                    .put("kills", k.kills())
                    .put("kills_planned", k.schedule().kills())
                    .put("seed", k.schedule().seed())
                    .put("messages", k.messages())
                    .put("answered_once", k.answeredOnce())
                    .put("answered_once_listed_unknown_after_send", k.answeredOnceListedUnknown())
                    .put("unanswered_listed_unknown_after_send", k.listedUnknown())
                    .put("unanswered_listed_otherwise", k.listedOtherCount())
                    .put("duplicates", k.duplicated().size())
                    .put("missing_unlisted", k.unlisted().size())
                    .put("unsent", k.unsent())
                    .put("strays", k.strays());
            k.schedule().atReplies().forEach(kn.putArray("at_replies")::add);
            k.downtimesMs().forEach(kn.putArray("down_ms")::add);
            k.listedOther().forEach(kn.putObject("listed_otherwise_by_state")::put);
            k.duplicated().forEach(kn.putArray("duplicated")::add);
            k.unlisted().forEach(kn.putArray("unlisted")::add);
        }
        return n.toString();
    }

    static void append(Path file, String text, String headerIfNew) throws IOException {
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        if (!Files.exists(file) && headerIfNew != null) Files.writeString(file, headerIfNew);
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Latency minus the fixed model delay: what the gateway (and the transport) added. */
    private static double added(LoadResult r, double p) {
        return r.outcome().percentileMillis(p) - r.modelDelayMs();
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}

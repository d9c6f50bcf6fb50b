package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.InspectorSettings;
import dev.clawgate.core.inspect.Detail;
import dev.clawgate.core.inspect.TurnInspector;
import dev.clawgate.core.inspect.TurnTrail;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the turn inspector costs per turn (SPEC OP-8: "the cost per turn measured and kept small"): the phases a
 * Telegram turn with one tool call records (the same names and detail sizes as the end-to-end test's), collected in
 * memory and written as one row to SQLite, timed on the thread's CPU clock; and the bytes the row takes. Prints the
 * figures bench/RESULTS.md quotes; fails only when a turn's row grows past 4 KiB.
 */
class TurnRecordingCostTest {
    private static final int TURNS = 2_000;

    @TempDir
    Path dir;

    @Test
    void aRecordedTurnCostsLittleCpuAndStaysUnderFourKibibytes() throws Exception {
        // SPEC OP-8: recording is cheap (in memory during the turn, one insert at its end) and compact
        Path db = dir.resolve("clawgate.db");
        try (Store store = new SqliteBackend(db).open(new MutableClock(java.time.Instant.now()))) {
            TurnInspector inspector = new TurnInspector(store.turns(), InspectorSettings::defaults, Clock.systemUTC());
            StoreTestBase base = new StoreTestBase() {
                @Override
                protected StoreBackend backend() {
                    return null;
                }
            };
            List<InboxRecord> batch = List.of(store.inbox()
                    .record(
                            base.message("m-1", "please note: buy milk"),
                            StoreTestBase.ALICE,
                            null,
                            Duration.ofMinutes(20))
                    .orElseThrow());
            for (int i = 0; i < 200; i++) turn(inspector, batch); // warm up
            long walBefore = size(db) + size(dir.resolve("clawgate.db-wal"));
            awaitRows(db, 200);
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            var process = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long start = cpu.getCurrentThreadCpuTime();
            long processStart = process.getProcessCpuTime();
            for (int i = 0; i < TURNS; i++) turn(inspector, batch);
            double micros = (cpu.getCurrentThreadCpuTime() - start) / 1000.0 / TURNS;
            awaitRows(db, 200 + TURNS);
            double processMicros = (process.getProcessCpuTime() - processStart) / 1000.0 / TURNS;
            TurnInspector off = new TurnInspector(
                    store.turns(), () -> new InspectorSettings(false, Duration.ofDays(7), false), Clock.systemUTC());
            for (int i = 0; i < 200; i++) turn(off, batch);
            long offStart = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < TURNS; i++) turn(off, batch);
            double offMicros = (cpu.getCurrentThreadCpuTime() - offStart) / 1000.0 / TURNS;

            var rows = rows(db);
            System.out.printf(
                    Locale.ROOT,
                    "turn inspector: %.1f us CPU per turn on the turn's thread, %.1f us in the whole process with the"
                            + " writer's inserts (inspector off: %.2f us);"
                            + " row %.0f bytes (phases JSON %.0f); database grew %.0f bytes per turn%n",
                    micros,
                    processMicros,
                    offMicros,
                    rows[0],
                    rows[1],
                    (double) (size(db) + size(dir.resolve("clawgate.db-wal")) - walBefore) / TURNS);
            assertThat(rows[0]).isLessThan(4096);
        }
    }

    /** The phases of a Telegram turn with one tool call, as the pipeline records them. */
    private static void turn(TurnInspector inspector, List<InboxRecord> batch) {
        TurnInspector.Recording r = inspector.begin(batch, "steer", 0);
        phases(r.trail());
        inspector.end(r, "replied");
    }

    private static void phases(TurnTrail t) {
        t.mark(
                "debounce",
                () -> Detail.of().put("debounce_ms", 0).put("messages", 1).put("decision", "single message"));
        long at = t.now();
        t.span(
                "history",
                at,
                () -> Detail.of()
                        .put("loaded", 12)
                        .put("kept", 12)
                        .put("dropped_messages", 0)
                        .put("dropped_turns", 0)
                        .put("chars", 2400));
        t.span(
                "memory",
                at,
                () -> Detail.of()
                        .put("recalled", 2)
                        .put("injected", 1)
                        .put("min_relevance", 0.4)
                        .raw(
                                "entries",
                                Detail.list(List.of(
                                        Detail.of()
                                                .put("key", "telegram_111_41")
                                                .put("score", 0.71)
                                                .put("chars", 40)
                                                .put("injected", true),
                                        Detail.of()
                                                .put("key", "telegram_111_40")
                                                .put("score", 0.22)
                                                .put("chars", 38)
                                                .put("injected", false)))));
        t.span("prompt", at, () -> {
            List<Detail> sections = List.of(
                    Detail.of().put("name", "Tools").put("chars", 2100),
                    Detail.of().put("name", "Safety").put("chars", 600),
                    Detail.of().put("name", "Workspace").put("chars", 120),
                    Detail.of().put("name", "Current Date & Time").put("chars", 60),
                    Detail.of().put("name", "Runtime").put("chars", 90),
                    Detail.of().put("name", "Channel Capabilities").put("chars", 300));
            return Detail.of().put("chars", 3300).raw("sections", Detail.list(sections));
        });
        for (int call = 0; call < 2; call++) {
            int n = call;
            t.span(
                    "model",
                    at,
                    () -> Detail.of()
                            .put("provider", "fake")
                            .put("model", "gpt-test")
                            .put("fallback", 0)
                            .put("attempt", 1)
                            .put("messages", 14 + n)
                            .put("request_chars", 5800)
                            .put("tools", 12)
                            .put("outcome", "ok")
                            .put("prompt_tokens", 1450)
                            .put("completion_tokens", 20)
                            .put("reply_chars", 40)
                            .put("tool_calls", 1 - n)
                            .put("finish", n == 0 ? "tool_calls" : "stop"));
            if (n == 0) {
                t.span(
                        "tool",
                        at,
                        () -> Detail.of()
                                .put("name", "file_write")
                                .put("arguments", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")
                                .put("result_chars", 31)
                                .put("error", false));
            }
        }
        t.mark(
                "sanitise",
                () -> Detail.of()
                        .put("chars_in", 40)
                        .put("chars_out", 38)
                        .put("removed_chars", 2)
                        .put("changed", true));
        t.mark(
                "chunks",
                () -> Detail.of()
                        .put("kind", "final")
                        .put("via", "outbox")
                        .put("reply_chars", 38)
                        .put("parts", 1)
                        .raw(
                                "sizes",
                                Detail.list(List.of(Detail.of().put("chars", 38).put("media", 0)))));
        t.span(
                "send",
                at,
                () -> Detail.of()
                        .put("kind", "final")
                        .put("outbox_id", 12345)
                        .put("part", 0)
                        .put("outcome", "sent")
                        .put("message_id", "111:2")
                        .put("platform_ids", 1)
                        .put("thread_id", null)
                        .put("reply_to", null));
    }

    private static double[] rows(Path db) throws Exception {
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
                var rs = c.createStatement()
                        .executeQuery("SELECT AVG(LENGTH(phases) + LENGTH(session) + LENGTH(preview) + LENGTH(outcome)"
                                + " + LENGTH(channel) + LENGTH(account) + LENGTH(chat_type) + LENGTH(reply_target)"
                                + " + LENGTH(thread_id) + LENGTH(sender) + 8 * 4), AVG(LENGTH(phases)) FROM turns")) {
            rs.next();
            return new double[] {rs.getDouble(1), rs.getDouble(2)};
        }
    }

    private static void awaitRows(Path db, int n) throws Exception {
        long until = System.nanoTime() + 60_000_000_000L;
        while (count(db) < n) {
            if (System.nanoTime() > until) throw new AssertionError("the writer did not write " + n + " turns");
            Thread.sleep(5);
        }
    }

    private static long count(Path db) throws Exception {
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
                var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM turns")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long size(Path p) throws Exception {
        return Files.exists(p) ? Files.size(p) : 0;
    }
}

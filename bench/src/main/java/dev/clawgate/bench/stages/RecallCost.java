package dev.clawgate.bench.stages;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Where {@link RecallStage}'s recall spends its CPU, for the leads in bench/RESULTS.md ("JMH per hot stage"): the
 * process's CPU per recall on the stage's seeded scope, the same for the store's per-recall count and term sum of the
 * whole scope alone (its SQL, on a second connection), and recall again after an FTS5 {@code optimize} of the memory
 * index (which no production code runs yet). Arguments: the scope sizes, e.g. {@code 1000,10000}.
 */
public final class RecallCost {
    private static final int ROUNDS = 500;

    private RecallCost() {}

    public static void main(String[] args) throws SQLException {
        for (String n : (args.length > 0 ? args[0] : "1000,10000").split(",")) measure(Integer.parseInt(n.strip()));
    }

    private static void measure(int memories) throws SQLException {
        RecallStage r = new RecallStage();
        r.memories = memories;
        r.seed();
        try {
            for (int i = 0; i < ROUNDS; i++) r.recall(r.nextQuery());
            double recall = perRound(() -> r.recall(r.nextQuery()));
            Path file = r.db.root().resolve("data").resolve(dev.clawgate.store.Stores.DEFAULT_FILE_NAME);
            double count;
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                    PreparedStatement p = c.prepareStatement(
                            "SELECT COUNT(*), COALESCE(SUM(term_count), 0) FROM memories WHERE scope IN (?)")) {
                p.setString(1, r.scopes.home().id());
                for (int i = 0; i < ROUNDS; i++) first(p);
                count = perRound(() -> first(p));
                try (Statement st = c.createStatement()) {
                    st.execute("INSERT INTO memory_fts(memory_fts) VALUES('optimize')");
                }
            }
            for (int i = 0; i < ROUNDS; i++) r.recall(r.nextQuery());
            double optimized = perRound(() -> r.recall(r.nextQuery()));
            System.out.printf(
                    Locale.ROOT,
                    "| %,d | %.0f | %.0f | %.0f |%n",
                    memories,
                    recall / 1e3,
                    count / 1e3,
                    optimized / 1e3);
        } finally {
            r.close();
        }
    }

    private interface Round {
        void run() throws SQLException;
    }

    /** The process's CPU nanoseconds per round, over {@link #ROUNDS} rounds. */
    private static double perRound(Round round) throws SQLException {
        long c0 = cpu();
        for (int i = 0; i < ROUNDS; i++) round.run();
        return (cpu() - c0) / (double) ROUNDS;
    }

    private static void first(PreparedStatement p) throws SQLException {
        try (ResultSet rs = p.executeQuery()) {
            if (!rs.next()) throw new IllegalStateException("the count returned no row");
        }
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}

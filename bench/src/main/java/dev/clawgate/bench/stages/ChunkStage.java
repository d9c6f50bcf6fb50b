package dev.clawgate.bench.stages;

import dev.clawgate.core.render.ChunkLimits;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A long final reply as a model writes one when asked for a walk-through (13,253 characters: paragraphs, a numbered
 * list, a 70-line fenced code block and a 40-row markdown table), to be cut for Telegram: the limits the Telegram
 * adapter gives the outbox's payload planner ({@code ChunkLimits.of(textLimit())}, 4,096 UTF-16 units by default, SPEC
 * OUT-1): five messages. The text is built once per trial, so what {@code -prof gc} counts is the chunker's own
 * allocation.
 */
@State(Scope.Benchmark)
public class ChunkStage {
    /** {@code TelegramAccount.MAX_TEXT}, the default {@code text_limit} (the channel is not on the compile path). */
    public static final int TELEGRAM_LIMIT = 4096;

    public String reply;
    public ChunkLimits limits;

    @Setup(Level.Trial)
    public void build() {
        limits = ChunkLimits.of(TELEGRAM_LIMIT);
        reply = longReply();
    }

    static String longReply() {
        StringBuilder sb = new StringBuilder();
        sb.append("Here is the whole migration, step by step. I kept each step small so you can stop after any of ")
                .append("them and the service still runs.\n\n");
        for (int i = 1; i <= 12; i++) {
            sb.append(i)
                    .append(". **Step ")
                    .append(i)
                    .append("**: move the `orders_")
                    .append(i)
                    .append("` table to the new schema, check the row counts match, then switch the reader. ")
                    .append("If the counts differ, stop and look at the log before going on.\n");
        }
        sb.append("\nThe script that does steps 1 to 6:\n\n```python\n");
        for (int i = 0; i < 70; i++) {
            sb.append("    rows_")
                    .append(i)
                    .append(" = db.execute(\"SELECT count(*) FROM orders_")
                    .append(i % 12 + 1)
                    .append(" WHERE migrated = 0\")  # step ")
                    .append(i % 6 + 1)
                    .append('\n');
        }
        sb.append("```\n\nWhat each table holds before and after:\n\n| table | rows before | rows after | notes |\n")
                .append("|---|---:|---:|---|\n");
        for (int i = 0; i < 40; i++) {
            sb.append("| orders_")
                    .append(i % 12 + 1)
                    .append(" | ")
                    .append(1000 + 37 * i)
                    .append(" | ")
                    .append(1000 + 37 * i)
                    .append(" | checked on day ")
                    .append(i / 12 + 1)
                    .append(", no orphans |\n");
        }
        for (int p = 0; p < 8; p++) {
            sb.append("\nA note on step ")
                    .append(p + 7)
                    .append(": the reader switch is the only moment users can notice anything. Do it when traffic ")
                    .append("is low, keep the old reader deployed for a day, and roll back by flipping the flag, ")
                    .append("not by moving data back. The numbers above say the copy is exact, so a roll-back is ")
                    .append("only ever about the code.\n");
        }
        sb.append("\nLet me know which step you want to start with.");
        return sb.toString();
    }
}

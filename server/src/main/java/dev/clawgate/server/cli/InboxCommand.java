package dev.clawgate.server.cli;

import dev.clawgate.core.store.InboxBook;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.UnreadableInbound;
import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clawgate inbox}: inbound records per state (SPEC IN-4) and the updates a channel could not read, kept as
 * failed with their raw payload (SPEC IN-4, CH-0: a poison message never blocks a stream); {@code --raw ID} prints one
 * payload as it came (cut to 16 KiB).
 */
@Command(name = "inbox", description = "Show inbound messages per state and the updates a channel could not read.")
final class InboxCommand implements Callable<Integer> {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final String ROW = "%-6s  %-10s  %-10s  %-14s  %-23s  %s%n";
    /** How many unreadable updates the overview lists. */
    static final int SHOWN = 20;

    @Mixin
    ConfigOption config;

    @Option(names = "--raw", paramLabel = "ID", description = "print the raw payload of unreadable update ID")
    Long raw;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Store store = config.openStore()) {
            if (raw != null) return printRaw(store, out);
            Map<InboxState, Long> counts = store.inbox().counts();
            out.println("Inbox records by state:");
            for (InboxState s : InboxState.values()) {
                out.printf("  %-18s %d%n", s.wireName(), counts.getOrDefault(s, 0L));
            }
            List<UnreadableInbound> unreadable = store.inbox().unreadable(InboxBook.UNREADABLE_KEPT);
            out.println();
            if (unreadable.isEmpty()) {
                out.println("No unreadable updates.");
                return Main.OK;
            }
            int n = unreadable.size();
            out.println(n + " update" + (n == 1 ? "" : "s") + " could not be read; each was recorded as failed and"
                    + " acknowledged, so the channel went on (newest first" + (n > SHOWN ? ", " + SHOWN + " shown" : "")
                    + "):");
            out.printf(ROW, "ID", "CHANNEL", "ACCOUNT", "PLATFORM REF", "RECORDED", "REASON");
            for (UnreadableInbound u : unreadable.subList(0, Math.min(SHOWN, n))) {
                String at = TIME.format(u.recordedAt());
                out.printf(ROW, u.id(), u.channel(), u.account(), u.platformRef(), at, u.reason());
            }
            out.println("'clawgate inbox --raw ID' prints what the platform sent.");
        }
        return Main.OK;
    }

    private int printRaw(Store store, PrintWriter out) {
        for (UnreadableInbound u : store.inbox().unreadable(InboxBook.UNREADABLE_KEPT)) {
            if (u.id() != raw) continue;
            out.println(u.raw());
            if (u.rawCut()) {
                out.println("[cut: " + u.rawLength() + " characters in all, the first "
                        + u.raw().length() + " kept]");
            }
            return Main.OK;
        }
        spec.commandLine()
                .getErr()
                .println("clawgate: there is no unreadable update " + raw + "; see 'clawgate inbox'");
        return Main.USAGE;
    }
}

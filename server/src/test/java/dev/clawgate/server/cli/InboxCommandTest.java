package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.UnreadableInbound;
import org.junit.jupiter.api.Test;

/** {@code clawgate inbox}: where an operator sees the updates a channel could not read (SPEC IN-4, CH-0, OP-4). */
class InboxCommandTest extends StoreCommandCase {

    private long keep(String ref, String reason, String raw) {
        try (Store store = store()) {
            store.inbox().recordUnreadable(UnreadableInbound.of("telegram", "default", ref, reason, raw));
            return store.inbox().unreadable(1).getFirst().id();
        }
    }

    @Test
    void theOverviewListsUnreadableUpdatesWithTheirReasonNewestFirst() {
        // SPEC IN-4: the poison message is visible to an operator, with why it was skipped
        keep("100", "message.date is missing or not a time", "{\"update_id\":100}");
        keep("101", "message.chat.id is missing or not a whole number", "{\"update_id\":101}");

        CliRunner.Result r = CliRunner.run("inbox", "--config", config.toString());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).containsPattern("failed\\s+0").contains("2 updates could not be read");
        assertThat(r.out().indexOf("101")).isLessThan(r.out().indexOf("message.date"));
        assertThat(r.out()).contains("message.chat.id is missing").contains("clawgate inbox --raw ID");
    }

    @Test
    void rawPrintsThePayloadAsItCameAndSaysWhenItWasCut() {
        // SPEC IN-4: the raw update is kept, bounded
        String huge = "{\"update_id\":7,\"x\":\"" + "y".repeat(UnreadableInbound.MAX_RAW_CHARS) + "\"}";
        long id = keep("7", "bad", huge);

        CliRunner.Result r = CliRunner.run("inbox", "--config", config.toString(), "--raw", Long.toString(id));

        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .startsWith(huge.substring(0, 100))
                .contains("[cut: " + huge.length() + " characters in all");
        assertThat(CliRunner.run("inbox", "--config", config.toString(), "--raw", "999")
                        .exit())
                .isEqualTo(Main.USAGE);
    }

    @Test
    void nothingUnreadableSaysSo() {
        // SPEC OP-4
        try (Store store = store()) {
            assertThat(store.healthy()).isTrue();
        }
        assertThat(CliRunner.run("inbox", "--config", config.toString()).out()).contains("No unreadable updates.");
    }
}

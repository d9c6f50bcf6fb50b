package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clawgate sessions} keeps its columns in line whatever the ids' lengths (issue 14, SPEC OP-4). */
class SessionsListingTest {
    @TempDir
    Path dir;

    @Test
    void longIdsDoNotBreakTheColumns() throws Exception {
        Files.writeString(dir.resolve("clawgate.toml"), "[gateway]\ndata_dir = \"data\"\n");
        String longId = "client-" + "0123456789abcdef".repeat(5);
        try (Store store = Stores.open(null, dir.resolve("data"))) {
            for (String sender : List.of("ann", longId, "stateless-0a1b")) {
                InboundMessage m = InboundMessage.direct("api", "m-" + sender, sender, "hi");
                SessionKey key = new SessionKey("api", null, ChatType.DIRECT, sender, null, sender);
                long id = store.inbox()
                        .record(m, key, null, Duration.ZERO)
                        .orElseThrow()
                        .id();
                // a stateless call records its inbox row only; the others hold a conversation
                if (!sender.startsWith("stateless-")) {
                    store.transcripts()
                            .dispatchWithUserMessages(key, List.of(new dev.clawgate.core.store.UserMessage(id, "hi")));
                    store.transcripts().completeTurn(key, id, "hello", dev.clawgate.core.store.InboxState.DONE);
                }
            }
        }
        CliRunner.Result r = CliRunner.run(
                "sessions", "--config", dir.resolve("clawgate.toml").toString());
        assertThat(r.exit()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0).indexOf(" messages")).isEqualTo(lines.get(1).indexOf(" messages"));
        assertThat(lines.subList(0, 2)).allSatisfy(l -> assertThat(l).contains("    2 messages  last "));
        // SPEC CH-10: the stateless call's session is not listed as a conversation, only counted
        assertThat(r.out()).doesNotContain("stateless-0a1b");
        assertThat(lines.get(2))
                .isEqualTo("(1 more with no stored messages: stateless API calls or cleared conversations)");
    }
}

package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.UserMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code clawgate export}: a user's data is theirs, as JSON Lines (SPEC OP-9). */
class ExportCommandTest extends StoreCommandCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    private void seed() {
        try (Store store = store()) {
            SessionKey key = new SessionKey("telegram", "main", ChatType.DIRECT, "42", null, "ann");
            long id = store.inbox()
                    .record(InboundMessage.direct("telegram", "m-1", "ann", "hi"), key, null, Duration.ZERO)
                    .orElseThrow()
                    .id();
            store.transcripts()
                    .dispatchWithUserMessages(key, List.of(new UserMessage(id, "hi \"there\"\nsecond line")));
            store.transcripts().completeTurn(key, id, "hello ann", InboxState.DONE);
            store.memory().store(MemoryScope.global(), "favourite-colour", "The owner likes green.", "core");
            store.memory().store(MemoryScope.sender("telegram", "ann"), "name", "Ann prefers short answers.", "core");
        }
    }

    private static List<JsonNode> lines(String out) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.split("\n", -1)) {
            if (line.isEmpty()) continue;
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }

    @Test
    void sessionsMessagesAndMemoriesComeOutOnePerLine() throws Exception {
        // SPEC OP-9
        seed();
        CliRunner.Result r = CliRunner.run("export", "--config", config.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).endsWith("\n");
        List<JsonNode> nodes = lines(r.out());
        assertThat(nodes)
                .extracting(n -> n.get("type").asText())
                .containsExactly("session", "message", "message", "memory", "memory");
        JsonNode session = nodes.get(0);
        assertThat(session.get("channel").asText()).isEqualTo("telegram");
        assertThat(session.get("sender").asText()).isEqualTo("ann");
        assertThat(nodes.get(1).get("session_id").asLong())
                .isEqualTo(session.get("id").asLong());
        assertThat(nodes.get(1).get("role").asText()).isEqualTo("user");
        assertThat(nodes.get(1).get("content").asText()).isEqualTo("hi \"there\"\nsecond line");
        assertThat(nodes.get(2).get("content").asText()).isEqualTo("hello ann");
        assertThat(nodes.get(2).get("turn_id").asLong())
                .isEqualTo(nodes.get(1).get("turn_id").asLong());
        assertThat(nodes.subList(3, 5))
                .extracting(n -> n.get("key").asText())
                .containsExactlyInAnyOrder("favourite-colour", "name");
        assertThat(nodes.get(1).get("created_at").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(r.err()).contains("Exported 1 sessions, 2 messages and 2 memories.");
    }

    @Test
    void toAFileTheExportIsPrivateAndNeverOverwrites() throws Exception {
        // SPEC OP-9, OP-6: the export holds the user's conversations
        seed();
        Path out = dir.resolve("export.jsonl");
        CliRunner.Result r = CliRunner.run("export", "-o", out.toString(), "--config", config.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(lines(Files.readString(out))).hasSize(5);
        assertThat(Files.getPosixFilePermissions(out)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        CliRunner.Result again = CliRunner.run("export", "-o", out.toString(), "--config", config.toString());
        assertThat(again.exit()).isEqualTo(Main.USAGE);
        assertThat(lines(Files.readString(out))).hasSize(5);
    }

    @Test
    void versionIsTheBuildsVersion() {
        // SPEC OP-4
        CliRunner.Result r = CliRunner.run("--version");
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines().findFirst().orElseThrow()).matches("clawgate \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }
}

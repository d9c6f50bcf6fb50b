package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.render.BlockStreaming;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys under an earlier name load with a warning; both names set is an error (SPEC OP-9 upgrades). */
class RenamedKeysTest {
    private static final TomlMapper TOML = new TomlMapper();

    @TempDir
    Path dir;

    @Test
    void aKnownOldNameLoadsAsTheNewOneWithOneWarningNamingBoth() {
        // SPEC OP-9, OUT-2
        try (CapturedLogs logs = new CapturedLogs()) {
            ClawgateConfig config = new ConfigFixture(dir).load("""
                    [channels.webchat.block_streaming]
                    enabled = true
                    chunk.min_chars = 100
                    chunk.max_chars = 300
                    """);
            BlockStreaming blocks = config.channel("webchat").output().blockStreaming();
            assertThat(blocks.minChars()).isEqualTo(100);
            assertThat(blocks.maxChars()).isEqualTo(300);
            assertThat(logs.lines())
                    .filteredOn(l -> l.startsWith("WARN") && l.contains("is now called"))
                    .containsExactly(
                            "WARN config: 'channels.webchat.block_streaming.chunk.min_chars' in "
                                    + dir.resolve("clawgate.toml")
                                    + " is now called 'channels.webchat.block_streaming.min_chars'; it was read as"
                                    + " that; rename it in the file",
                            "WARN config: 'channels.webchat.block_streaming.chunk.max_chars' in "
                                    + dir.resolve("clawgate.toml")
                                    + " is now called 'channels.webchat.block_streaming.max_chars'; it was read as"
                                    + " that; rename it in the file");
        }
    }

    @Test
    void theOldAndTheNewNameTogetherIsAnErrorNamingBoth() {
        // SPEC OP-9
        String message = new ConfigFixture(dir).error("""
                [channels.webchat.block_streaming]
                min_chars = 100
                chunk.min_chars = 200
                """);
        assertThat(message)
                .contains("'channels.webchat.block_streaming.min_chars' and its old name")
                .contains("'channels.webchat.block_streaming.chunk.min_chars' are both set");
        // no value in the message (the file's path is left out: a temp dir's random digits may hold "100")
        assertThat(message.replace(dir.toString(), "")).doesNotContain("100").doesNotContain("200");
    }

    @Test
    void aRenameMovesTheValueUnderEachUserChosenNameAndDropsTablesLeftEmpty() throws Exception {
        // SPEC OP-9: the mechanism, on a table of its own
        RenamedKeys renames = new RenamedKeys(List.of(
                new RenamedKeys.Rename("providers.<name>.endpoint", "providers.<name>.base_url"),
                new RenamedKeys.Rename("server.listen", "gateway.bind")));
        JsonNode root = TOML.readTree("""
                [server]
                listen = "127.0.0.1:9000"
                [providers.a]
                kind = "openai"
                endpoint = "http://a"
                [providers.b]
                endpoint = "http://b"
                [providers.c]
                base_url = "http://c"
                """);
        List<String> warnings = renames.apply(root, "f.toml");
        assertThat(root.path("gateway").path("bind").asText()).isEqualTo("127.0.0.1:9000");
        assertThat(root.has("server")).isFalse();
        assertThat(root.path("providers").path("a").path("base_url").asText()).isEqualTo("http://a");
        assertThat(root.path("providers").path("a").path("kind").asText()).isEqualTo("openai");
        assertThat(root.path("providers").path("a").has("endpoint")).isFalse();
        assertThat(root.path("providers").path("b").path("base_url").asText()).isEqualTo("http://b");
        assertThat(root.path("providers").path("c").path("base_url").asText()).isEqualTo("http://c");
        assertThat(warnings)
                .hasSize(3)
                .anySatisfy(
                        w -> assertThat(w).contains("'providers.b.endpoint'").contains("'providers.b.base_url'"))
                .anySatisfy(w -> assertThat(w).contains("'server.listen'").contains("'gateway.bind'"))
                .allSatisfy(w -> assertThat(w).doesNotContain("http://").doesNotContain("9000"));
    }

    @Test
    void everyKnownRenameLeadsFromANameTheSchemaNoLongerHasToOneItHas() {
        // SPEC OP-9: the table stays true as the schema changes
        List<String> known = ConfigSchema.knownPaths();
        assertThat(RenamedKeys.KNOWN).isNotEmpty().allSatisfy(r -> {
            assertThat(known).contains(r.newPath()).doesNotContain(r.oldPath());
        });
        assertThatThrownBy(() -> new RenamedKeys.Rename("channels.<name>.x", "y"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

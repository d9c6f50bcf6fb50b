package dev.clawgate.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What nodes of a cluster compare of their config files (SPEC OP-2, RT-3, OP-6). */
class ConfigDigestTest {
    @TempDir
    Path dir;

    private String digestOf(String name, String toml) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, toml);
        return ConfigDigest.of(f);
    }

    @Test
    void nodesThatDifferOnlyInTheirOwnPlacesHaveOneDigest() throws Exception {
        // SPEC OP-2: same config but bind (and data dir, workspace, node id)
        String a = digestOf("a.toml", """
                [gateway]
                bind = "127.0.0.1:1"
                data_dir = "/a"
                [agent]
                workspace = "/a/ws"
                [cluster]
                node_id = "a"
                """);
        String b = digestOf("b.toml", """
                [gateway]
                bind = "127.0.0.1:2"
                data_dir = "/b"
                [agent]
                workspace = "/b/ws"
                [cluster]
                node_id = "b"
                """);
        assertThat(a).isEqualTo(b).startsWith("agent=");
    }

    @Test
    void aDifferenceIsNamedBySectionAndNoValueLeavesTheNode() throws Exception {
        // SPEC OP-6: a section may hold a secret; only its name and a short hash are compared
        String a = digestOf("a.toml", """
                [providers.fake]
                api_key = "sk-secret-aaaa"
                [messages.queue]
                mode = "followup"
                """);
        String b = digestOf("b.toml", """
                [providers.fake]
                api_key = "sk-secret-bbbb"
                [messages.queue]
                mode = "followup"
                """);
        assertThat(a).doesNotContain("sk-secret").doesNotContain("followup");
        assertThat(ConfigDigest.differingSections(a, b)).containsExactly("providers");
        assertThat(ConfigDigest.differingSections(a, "")).containsExactly("messages", "providers");
        assertThat(ConfigDigest.differingSections(a, a)).isEmpty();
    }
}

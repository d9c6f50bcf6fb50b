package dev.clawgate.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How an MCP tool result becomes the text the model sees, and the names it sees tools by (SPEC AG-7, AG-3, OP-6). */
class ResultTextTest {
    private static final SecretScrub SCRUB = new SecretScrub(List.of("s3cret-value", "tiny"));

    @Test
    void textPartsAreJoinedImagesBecomeDataUrisAndResourcesTheirTextOrUri() {
        // SPEC AG-7, AG-3: images as data: URIs, which the agent loop keeps as [IMAGE:path] markers
        var result = McpSchema.CallToolResult.builder()
                .addTextContent("first")
                .addContent(new McpSchema.ImageContent(null, "iVBORw0KGgo=", "image/png"))
                .addContent(new McpSchema.EmbeddedResource(
                        null, new McpSchema.TextResourceContents("file:///a.txt", "text/plain", "inside a.txt")))
                .addContent(new McpSchema.EmbeddedResource(
                        null, new McpSchema.BlobResourceContents("file:///b.bin", "application/octet-stream", "AAAA")))
                .isError(false)
                .build();
        assertThat(ResultText.of(result, SCRUB))
                .isEqualTo(ToolResult.ok("first\ndata:image/png;base64,iVBORw0KGgo=\ninside a.txt\n"
                        + "[resource file:///b.bin (application/octet-stream) not kept]"));
    }

    @Test
    void withoutPartsTheStructuredContentIsGivenAsJsonAndAnErrorStaysAnError() {
        // SPEC AG-7
        var structured = McpSchema.CallToolResult.builder()
                .structuredContent(Map.of("temp", 21))
                .build();
        assertThat(ResultText.of(structured, SCRUB)).isEqualTo(ToolResult.ok("{\"temp\":21}"));
        var failed = McpSchema.CallToolResult.builder()
                .addTextContent("no such city")
                .isError(true)
                .build();
        assertThat(ResultText.of(failed, SCRUB)).isEqualTo(ToolResult.error("no such city"));
        var empty = McpSchema.CallToolResult.builder()
                .content(List.of())
                .isError(true)
                .build();
        assertThat(ResultText.of(empty, SCRUB)).isEqualTo(ToolResult.error("the tool failed"));
    }

    @Test
    void configuredSecretsKeysAndBearerTokensAreRedacted() {
        // SPEC OP-6: values shorter than 4 characters are not treated as secrets (they would cut words apart)
        String out = SCRUB.apply("key s3cret-value, Authorization: Bearer abc.def-ghi_jkl, sk-proj-abcdefghijk, "
                + "url?token=xyz123&x=1, tiny");
        assertThat(out)
                .doesNotContain("s3cret-value", "abc.def-ghi_jkl", "sk-proj-abcdefghijk", "xyz123", "tiny")
                .contains("Bearer [redacted]", "token=[redacted]&x=1");
        assertThat(new SecretScrub(List.of("abc")).apply("abc")).isEqualTo("abc");
    }

    @Test
    void toolNamesArePrefixedWithTheServerAndFitWhatModelApisAccept() {
        // SPEC AG-7: <server>__<tool>, at most 64 of [A-Za-z0-9_-]
        assertThat(ToolNames.exposed("files", "read_file")).isEqualTo("files__read_file");
        assertThat(ToolNames.exposed("gh", "repos.get/contents")).isEqualTo("gh__repos_get_contents");
        String longName = ToolNames.exposed("server", "x".repeat(100));
        assertThat(longName).hasSize(ToolNames.MAX).startsWith("server__xxx").matches("[A-Za-z0-9_-]+");
    }
}

package dev.clawgate.core.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.config.ShellSandboxMode;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxStatus;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolRegistry;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BuiltinToolsTest {

    // SPEC AG-5
    @Test
    void defaultsGiveTheThreeFileToolsMessageSendTheMemoryToolsAndShell() {
        List<Tool> tools = BuiltinTools.create(ToolSettings.defaults());
        assertThat(tools)
                .extracting(Tool::name)
                .containsExactly(
                        "file_read",
                        "file_write",
                        "file_list",
                        "message_send",
                        "web_fetch",
                        "memory_store",
                        "memory_recall",
                        "memory_forget",
                        "shell");
        assertThat(new ToolRegistry(tools).names()).hasSize(9);
    }

    // SPEC AG-5: memory switched off takes its tools with it
    @Test
    void disabledMemoryLeavesTheMemoryToolsOut() {
        List<Tool> tools = BuiltinTools.create(
                ToolSettings.defaults(), MemorySettings.defaults().disabled());
        assertThat(tools)
                .extracting(Tool::name)
                .containsExactly("file_read", "file_write", "file_list", "message_send", "web_fetch", "shell");
    }

    // SPEC AG-5
    @Test
    void anEmptyAllowlistLeavesShellOut() {
        List<Tool> tools = BuiltinTools.create(new ToolSettings(8_000, List.of(), 60, 16_000));
        assertThat(tools)
                .extracting(Tool::name)
                .containsExactly(
                        "file_read",
                        "file_write",
                        "file_list",
                        "message_send",
                        "web_fetch",
                        "memory_store",
                        "memory_recall",
                        "memory_forget");
    }

    // SPEC AG-8: without a working sandbox the model is not offered the shell tool at all
    @Test
    void noWorkingSandboxLeavesShellOut() {
        ShellSandboxStatus broken = new ShellSandboxStatus(ShellSandboxMode.BWRAP, Optional.empty(), List.of());
        List<Tool> tools = BuiltinTools.create(
                ToolSettings.defaults(), MemorySettings.defaults(), broken, PublicWeb.unavailable());
        assertThat(tools).extracting(Tool::name).doesNotContain("shell").contains("file_read", "web_fetch");
    }

    // SPEC AG-5: every schema is a JSON-schema object whose required names are declared properties
    @Test
    void everySchemaIsAProperJsonSchemaObject() {
        for (Tool tool : BuiltinTools.create(ToolSettings.defaults())) {
            JsonNode s = tool.parameters();
            assertThat(s.path("type").asText()).as(tool.name()).isEqualTo("object");
            assertThat(s.path("properties").isObject()).as(tool.name()).isTrue();
            assertThat(s.path("required").isArray()).as(tool.name()).isTrue();
            s.path("required")
                    .forEach(r -> assertThat(s.path("properties").has(r.asText()))
                            .as(tool.name())
                            .isTrue());
            s.path("properties").properties().forEach(p -> {
                assertThat(p.getValue().path("type").asText()).isIn("string", "integer", "boolean", "object");
                assertThat(p.getValue().path("description").asText()).isNotBlank();
            });
            assertThat(tool.description()).isNotBlank();
            assertThat(tool.spec().parameters()).isEqualTo(s);
        }
    }

    // SPEC AG-5: a caller cannot change a tool's schema through the node it was handed
    @Test
    void schemaHandedOutIsACopy() {
        Tool read = new FileReadTool(100);
        ((com.fasterxml.jackson.databind.node.ObjectNode) read.parameters()).put("type", "array");
        assertThat(read.parameters().path("type").asText()).isEqualTo("object");
    }

    // SPEC AG-5
    @Test
    void shellDescriptionNamesTheAllowedPrograms() {
        Tool shell = new ShellTool(new ToolSettings(8_000, List.of("ls", "cat"), 5, 100));
        assertThat(shell.description()).contains("cat, ls").contains("5 s");
    }
}

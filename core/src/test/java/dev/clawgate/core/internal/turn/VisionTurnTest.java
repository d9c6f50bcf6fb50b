package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.testing.ScriptedProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A turn with an image for a vision model and for one without vision (SPEC AG-4, HI-3). */
class VisionTurnTest {
    @TempDir
    Path workspace;

    @Test
    void aVisionModelGetsTheWorkspaceImageInlineAndATextModelGetsNoMarker() throws Exception {
        // SPEC AG-4
        Files.createDirectories(workspace);
        Path png = Files.write(workspace.resolve("photo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        TurnFixture vision = new TurnFixture(workspace, "test");
        ScriptedProvider sees = vision.provider("v", "m", true, true).text("a cat");
        vision.run(vision.record("alice", "what is this? [IMAGE:" + png + "]"));
        ChatMessage sent = sees.requests().get(0).messages().stream()
                .filter(m -> m.role() == Role.USER)
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(sent.content())
                .contains("[IMAGE:data:image/png;base64,iVBORw==]")
                .doesNotContain(png.toString());

        TurnFixture text = new TurnFixture(workspace, "test");
        ScriptedProvider blind = text.provider("t", "m", true, false).text("no idea");
        text.run(text.record("bob", "what is this? [IMAGE:" + png + "]"));
        ChatMessage plain = blind.requests().get(0).messages().stream()
                .filter(m -> m.role() == Role.USER)
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(plain.content()).doesNotContain("[IMAGE:");
    }
}

package dev.clawgate.core.internal.prompt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceSkillsTest {
    @TempDir
    Path ws;

    private void skill(String dir, String text) throws Exception {
        Files.createDirectories(ws.resolve("skills").resolve(dir));
        Files.writeString(ws.resolve("skills").resolve(dir).resolve("SKILL.md"), text);
    }

    @Test
    void frontMatterNamesTheSkillAndTheBodyFollowsTheDescription() throws Exception {
        // SPEC SP-1: name + description from front matter
        skill("wx", "---\nname: weather\ndescription: 'Weather by city.'\n---\nUse web_fetch.\n");
        assertThat(WorkspaceSkills.read(ws))
                .containsExactly(new Skill("weather", "Weather by city.\nUse web_fetch.", "skills/wx/SKILL.md"));
    }

    @Test
    void withoutFrontMatterTheDirectoryNamesItAndTheFirstProseLineDescribesIt() throws Exception {
        // SPEC SP-1
        skill("notes", "# Notes\n\nKeep a file per day.\nMore detail.\n");
        assertThat(WorkspaceSkills.read(ws))
                .containsExactly(
                        new Skill("notes", "Keep a file per day.\n# Notes\n\nMore detail.", "skills/notes/SKILL.md"));
    }

    @Test
    void emptyFilesLinksAndDirectoriesWithoutASkillFileAreSkippedAndALongFileIsCut() throws Exception {
        // SPEC SP-1, OP-7: bounded, confined to the workspace
        skill("empty", "  \n");
        Files.createDirectories(ws.resolve("skills/nothing"));
        Path outside = Files.writeString(ws.getParent().resolve(ws.getFileName() + "-secret.md"), "secret skill");
        Files.createDirectories(ws.resolve("skills/link"));
        Files.createSymbolicLink(ws.resolve("skills/link/SKILL.md"), outside);
        skill("long", "x".repeat(WorkspaceSkills.MAX_CHARS + 50));
        assertThat(WorkspaceSkills.read(ws)).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("long");
            assertThat(s.description())
                    .hasSizeLessThan(WorkspaceSkills.MAX_CHARS + 100)
                    .endsWith("read SKILL.md for the rest]");
        });
        assertThat(WorkspaceSkills.read(ws.resolve("absent"))).isEmpty();
    }
}

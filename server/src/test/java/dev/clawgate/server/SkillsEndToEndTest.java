package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.prompt.SkillsMode;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Skills in the workspace reach the model's system prompt, full or compact, fresh for each new session (SPEC SP-1,
 * SP-2).
 */
class SkillsEndToEndTest extends GatewayFixture {

    private void skill(String dirName, String text) throws Exception {
        Path d = dir.resolve("workspace/skills").resolve(dirName);
        Files.createDirectories(d);
        Files.writeString(d.resolve("SKILL.md"), text);
    }

    private int start(SkillsMode mode) throws Exception {
        ClawgateConfig c = config();
        var a = c.agent();
        ClawgateConfig cfg = c.withAgent(new dev.clawgate.core.config.AgentSettings(
                a.provider(),
                a.model(),
                a.maxToolIterations(),
                a.messageTimeoutSecs(),
                a.timeoutScaleCap(),
                a.workspace(),
                a.showToolCalls(),
                a.fallback(),
                mode));
        return serve(cfg);
    }

    private static String system(RecordedRequest r) {
        return r.messages().get(0).path("content").asText();
    }

    private static final String WEATHER = """
            ---
            name: weather
            description: "Look up the weather for a city."
            ---
            # Weather
            Call web_fetch on https://wttr.in/CITY?format=3 and answer in one line.
            """;

    @Test
    void fullModeGivesEachSkillItsWholeTextInTheSkillsSection() throws Exception {
        // SPEC SP-1: Skills section, full
        skill("weather", WEATHER);
        skill("notes", "# Notes\nKeep notes in notes/ as one file per day.\n");
        model.enqueue(Reply.text("ok"));
        GatewayHarness.chat(start(SkillsMode.FULL), "alice", "hi", null);
        String system = system(model.lastRequest());
        assertThat(system)
                .contains("## Skills\nYou have these skills:\n- notes: Keep notes in notes/ as one file per day.\n  # "
                        + "Notes\n"
                        + "- weather: Look up the weather for a city.\n  # Weather\n  Call web_fetch on "
                        + "https://wttr.in/CITY?format=3");
        // SP-1 order: Safety, then Skills, then Workspace
        assertThat(system.indexOf("## Skills"))
                .isGreaterThan(system.indexOf("## Safety"))
                .isLessThan(system.indexOf("## Workspace"));
    }

    @Test
    void compactModeGivesOneLinePerSkillAndWhereToReadIt() throws Exception {
        // SPEC SP-1: Skills section, compact
        skill("weather", WEATHER);
        model.enqueue(Reply.text("ok"));
        GatewayHarness.chat(start(SkillsMode.COMPACT), "alice", "hi", null);
        String system = system(model.lastRequest());
        assertThat(system)
                .contains("- weather: Look up the weather for a city. (skills/weather/SKILL.md)")
                .doesNotContain("wttr.in");
    }

    @Test
    void aSkillAddedLaterReachesANewSessionButNotTheCachedPromptOfARunningOne() throws Exception {
        // SPEC SP-2: a new session rebuilds the cached prompt (fresh skills); an existing one reuses it
        model.echoLastUserMessage();
        int port = start(SkillsMode.FULL);
        GatewayHarness.chat(port, "alice", "first", null);
        assertThat(system(model.lastRequest())).doesNotContain("## Skills");

        skill("weather", WEATHER);
        GatewayHarness.chat(port, "alice", "second", null);
        assertThat(system(model.lastRequest())).doesNotContain("## Skills");

        GatewayHarness.chat(port, "bob", "hello", null);
        assertThat(system(model.lastRequest())).contains("- weather: Look up the weather for a city.");

        GatewayHarness.chat(port, "alice", "/new", null);
        GatewayHarness.chat(port, "alice", "third", null);
        assertThat(system(model.lastRequest())).contains("- weather: Look up the weather for a city.");
    }
}

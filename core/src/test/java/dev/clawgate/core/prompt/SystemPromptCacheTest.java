package dev.clawgate.core.prompt;

import static dev.clawgate.core.prompt.PromptFixtures.builder;
import static dev.clawgate.core.prompt.PromptFixtures.session;
import static dev.clawgate.core.prompt.PromptFixtures.tools;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.prompt.Skill;
import dev.clawgate.core.prompt.PromptFixtures.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemPromptCacheTest {
    @TempDir
    Path ws;

    MutableClock clock;
    SystemPromptCache cache;
    PromptContext ctx;

    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(ws.resolve("IDENTITY.md"), "I am version one.");
        clock = new MutableClock(Instant.parse("2025-03-04T13:05:09Z"));
        cache = new SystemPromptCache(builder(clock));
        ctx = PromptContext.builder(ws)
                .tools(tools())
                .channel("telegram")
                .replyTarget("42")
                .skills(List.of(new Skill("old-skill", "first")))
                .build();
    }

    // SPEC SP-2
    @Test
    void anExistingSessionReusesItsPromptWhileANewSessionReadsTheFilesAgain() throws Exception {
        assertThat(cache.prompt(session("alice"), ctx).text()).contains("I am version one.");
        Files.writeString(ws.resolve("IDENTITY.md"), "I am version two.");
        assertThat(cache.prompt(session("alice"), ctx).text())
                .contains("I am version one.")
                .doesNotContain("version two");
        assertThat(cache.prompt(session("bob"), ctx).text()).contains("I am version two.");
    }

    // SPEC SP-2
    @Test
    void invalidateMakesTheNextTurnRebuild() throws Exception {
        cache.prompt(session("alice"), ctx);
        Files.writeString(ws.resolve("IDENTITY.md"), "I am version two.");
        cache.invalidate(session("alice"));
        assertThat(cache.prompt(session("alice"), ctx).text()).contains("I am version two.");
        Files.writeString(ws.resolve("IDENTITY.md"), "I am version three.");
        cache.invalidateAll();
        assertThat(cache.size()).isZero();
        assertThat(cache.prompt(session("alice"), ctx).text()).contains("I am version three.");
    }

    // SPEC SP-2: fresh skills only with a new session
    @Test
    void skillsAreFreshForANewSessionOnly() {
        cache.prompt(session("alice"), ctx);
        PromptContext newSkills = new PromptContext(
                ctx.tools(),
                ctx.nativeTools(),
                ctx.hardwareTools(),
                ctx.workspace(),
                ctx.model(),
                ctx.provider(),
                ctx.channel(),
                ctx.replyTarget(),
                ctx.chatType(),
                List.of(new Skill("new-skill", "second")),
                ctx.memory());
        assertThat(cache.prompt(session("alice"), newSkills).text())
                .contains("old-skill")
                .doesNotContain("new-skill");
        assertThat(cache.prompt(session("bob"), newSkills).text())
                .contains("new-skill")
                .doesNotContain("old-skill");
    }

    // SPEC SP-2, SP-1
    @Test
    void dateAndTimeAreFreshOnEveryTurnWhileTheStablePartIsReused() throws Exception {
        BuiltPrompt first = cache.prompt(session("alice"), ctx);
        Files.writeString(ws.resolve("IDENTITY.md"), "I am version two.");
        clock.advance(Duration.ofHours(26).plusMinutes(3));
        BuiltPrompt second = cache.prompt(session("alice"), ctx);
        assertThat(first.section("Current Date & Time").orElseThrow().text()).contains("2025-03-04 14:05:09 (Tuesday)");
        assertThat(second.section("Current Date & Time").orElseThrow().text())
                .contains("2025-03-05 16:08:09 (Wednesday)");
        assertThat(second.section("Project Context")).isEqualTo(first.section("Project Context"));
        assertThat(second.text()).contains("I am version one.");
    }

    // SPEC ME-4, SP-2
    @Test
    void memoriesAreFreshOnEveryTurnAndNeverCached() {
        BuiltPrompt one = cache.prompt(session("alice"), ctx.withMemory(List.of(new MemoryLine("k1", "likes tea"))));
        BuiltPrompt two = cache.prompt(session("alice"), ctx.withMemory(List.of(new MemoryLine("k2", "likes coffee"))));
        BuiltPrompt none = cache.prompt(session("alice"), ctx);
        assertThat(one.text()).endsWith("[Memory context]\n- k1: likes tea");
        assertThat(two.text()).endsWith("[Memory context]\n- k2: likes coffee").doesNotContain("likes tea");
        assertThat(none.text()).doesNotContain("[Memory context]", "likes");
        assertThat(none.sectionNames()).doesNotContain("Memory Context");
    }

    // SPEC SP-3, SP-2: a fallback provider without native tools must see the protocol
    @Test
    void switchingToPromptGuidedToolsRebuildsEvenForAnExistingSession() {
        assertThat(cache.prompt(session("alice"), ctx).text()).doesNotContain("<tool_call>");
        PromptContext guided = new PromptContext(
                ctx.tools(),
                false,
                ctx.hardwareTools(),
                ctx.workspace(),
                "local-model",
                "ollama",
                ctx.channel(),
                ctx.replyTarget(),
                ctx.chatType(),
                ctx.skills(),
                ctx.memory());
        BuiltPrompt p = cache.prompt(session("alice"), guided);
        assertThat(p.text()).contains("<tool_call>", "Model: local-model", "Provider: ollama");
        assertThat(cache.size()).isEqualTo(1);
    }

    // SPEC SP-2, OP-7
    @Test
    void theCacheDropsTheLeastRecentlyUsedSessionPastItsBound() throws Exception {
        SystemPromptCache small = new SystemPromptCache(builder(clock), 3);
        small.prompt(session("s1"), ctx);
        small.prompt(session("s2"), ctx);
        small.prompt(session("s3"), ctx);
        small.prompt(session("s1"), ctx); // s1 is now the most recent; s2 the least
        small.prompt(session("s4"), ctx);
        assertThat(small.size()).isEqualTo(3);
        Files.writeString(ws.resolve("IDENTITY.md"), "I am version two.");
        assertThat(small.prompt(session("s1"), ctx).text()).contains("version one");
        assertThat(small.prompt(session("s3"), ctx).text()).contains("version one");
        assertThat(small.prompt(session("s2"), ctx).text()).contains("version two");
        assertThat(small.size()).isEqualTo(3);
    }

    // SPEC OP-7
    @Test
    void theDefaultBoundHoldsTenThousandSessions() {
        SystemPromptCache big = new SystemPromptCache(builder(clock));
        // a workspace without files keeps ten thousand builds cheap; the bound is what is under test
        PromptContext bare = PromptContext.builder(ws.resolve("empty")).build();
        for (int i = 0; i < SystemPromptCache.DEFAULT_MAX_SESSIONS + 50; i++) big.prompt(session("u" + i), bare);
        assertThat(big.size()).isEqualTo(10_000);
    }
}

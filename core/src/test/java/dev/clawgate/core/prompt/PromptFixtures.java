package dev.clawgate.core.prompt;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.internal.prompt.SkillsMode;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.provider.ToolSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/** Clocks, tools and sessions for prompt tests. */
final class PromptFixtures {
    static final ObjectMapper JSON = new ObjectMapper();
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private PromptFixtures() {}

    static List<ToolSpec> tools() {
        return List.of(
                new ToolSpec(
                        "weather",
                        "Current weather\nfor a city",
                        JSON.createObjectNode()
                                .put("type", "object")
                                .<com.fasterxml.jackson.databind.node.ObjectNode>set(
                                        "properties",
                                        JSON.createObjectNode()
                                                .set(
                                                        "city",
                                                        JSON.createObjectNode().put("type", "string")))
                                .set("required", JSON.createArrayNode().add("city"))),
                new ToolSpec(
                        "dice",
                        "Roll a die",
                        JSON.createObjectNode().put("type", "object").set("properties", JSON.createObjectNode())));
    }

    static SessionKey session(String who) {
        return new SessionKey("telegram", null, ChatType.DIRECT, who, null, who);
    }

    /** What channels would say of themselves (SPEC SP-1): the prompt takes each channel's own text. */
    static final ChannelGuidance GUIDANCE = ChannelGuidance.of(java.util.Map.of(
            "telegram", "Telegram renders Markdown. " + ChannelGuidance.MEDIA_MARKERS,
            "terminal", "The terminal shows plain text: no Markdown, no media markers.",
            "api", "API clients may show plain text or render Markdown."));

    static SystemPromptBuilder builder(Clock clock) {
        return new SystemPromptBuilder(clock, BERLIN, "test-host", SkillsMode.FULL, GUIDANCE);
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the builder converts with its own zone");
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

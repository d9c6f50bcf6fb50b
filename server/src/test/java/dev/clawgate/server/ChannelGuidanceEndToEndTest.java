package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.testkit.openai.RecordedRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The prompt's Channel Capabilities come from the channel module itself, not from a table in core (SPEC SP-1). */
class ChannelGuidanceEndToEndTest extends TelegramGatewayFixture {
    @Test
    void aTelegramTurnsSystemPromptCarriesWhatTheTelegramModuleSaysOfItsFormatting() throws Exception {
        start(config(Map.of()));
        tg.sendText(dm, alice, "hello");
        awaitSent(dm, 1);
        RecordedRequest req = model.chatRequests().getFirst();
        String system = req.messages().get(0).path("content").asText();
        assertThat(system).contains("## Channel Capabilities\nTelegram renders Markdown", "[IMAGE:path]");
    }
}

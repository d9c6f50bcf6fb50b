package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.config.MultimodalSettings;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A reload that also changes a restart-only key applies everything else and says what waits for a restart (SPEC RT-3).
 */
class ReloadRestartOnlyTest extends TelegramGatewayFixture {
    private final Logger logger = (Logger) LoggerFactory.getLogger(Gateway.class);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

    @BeforeEach
    void capture() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logs);
    }

    private ClawgateConfig config(Path dataDir, String apiBase) {
        ClawgateConfig c = config(Map.of("api_base", apiBase));
        return new ClawgateConfig(
                new GatewaySettings(dataDir, "127.0.0.1:0", null),
                c.agent(),
                c.providers(),
                c.routes(),
                c.history(),
                c.tools(),
                c.dispatch(),
                c.session(),
                c.inbound(),
                c.queue(),
                c.channels());
    }

    private List<String> lines() {
        return logs.list.stream()
                .map(e -> e.getLevel() + " " + e.getFormattedMessage())
                .toList();
    }

    private List<String> toolNamesOfLastRequest() {
        List<String> names = new java.util.ArrayList<>();
        model.lastRequest()
                .body()
                .path("tools")
                .forEach(t -> names.add(t.path("function").path("name").asText()));
        return names;
    }

    @Test
    void memoryMultimodalAndPrefixChangesApplyWhileTheNewDataDirWaitsForARestart() throws Exception {
        // SPEC RT-3: a restart-only change must not reset [memory], [multimodal] or messages.response_prefix
        start(config(dir.resolve("data"), tg.apiBase()), GatewayOptions.server());
        model.enqueue(Reply.text("one"), Reply.text("two"));
        GatewayHarness.chat(gateway.httpPort(), "alice", "hello", null);
        assertThat(toolNamesOfLastRequest()).contains("memory_store", "cron_add");

        MemorySettings off = new MemorySettings(
                false,
                MemorySettings.defaults().autoSave(),
                MemorySettings.defaults().autoSaveMinChars(),
                MemorySettings.defaults().recallLimit(),
                MemorySettings.defaults().minRelevance(),
                MemorySettings.defaults().contextMaxEntries(),
                MemorySettings.defaults().contextEntryChars(),
                MemorySettings.defaults().contextMaxChars(),
                MemorySettings.defaults().maxEntryChars(),
                MemorySettings.defaults().maxEntriesPerScope(),
                MemorySettings.defaults().conversationMaxAge());
        ClawgateConfig next = config(dir.resolve("elsewhere"), tg.apiBase())
                .withMemory(off)
                .withMultimodal(new MultimodalSettings(true, 2, 1024))
                .withResponsePrefix("[bot] ");
        gateway.reload(next);

        ClawgateConfig running = gateway.config();
        assertThat(running.memory().enabled()).isFalse();
        assertThat(running.multimodal()).isEqualTo(new MultimodalSettings(true, 2, 1024));
        assertThat(running.responsePrefix()).isEqualTo("[bot] ");
        assertThat(running.gateway().dataDir()).isEqualTo(dir.resolve("data"));
        assertThat(lines())
                .anySatisfy(l -> assertThat(l).startsWith("WARN").contains("[gateway.data_dir]", "needs a restart"));

        // at the boundary: the next turn's request carries no memory tools
        GatewayHarness.chat(gateway.httpPort(), "alice", "again", null);
        assertThat(toolNamesOfLastRequest())
                .doesNotContain("memory_store", "memory_recall", "memory_forget")
                .contains("file_read");
    }

    @Test
    void aChangedChannelOptionIsReportedAsNeedingARestartAndTheRunningValueStays() throws Exception {
        // SPEC RT-3: channel options are read when the channel starts; a change is reported, never silently
        // half-applied
        start(config(dir.resolve("data"), tg.apiBase()), GatewayOptions.with());
        AccessSettings allowlist =
                new AccessSettings(DmPolicy.ALLOWLIST, List.of("111"), GroupPolicy.OPEN, List.of(), true);
        ClawgateConfig edited = config(dir.resolve("data"), "http://127.0.0.1:9/elsewhere");
        edited = edited.withChannel(new ChannelSettings(
                "telegram", allowlist, Map.of(), edited.channel("telegram").options(), Map.of()));
        gateway.reload(edited);

        assertThat(lines())
                .anySatisfy(l -> assertThat(l)
                        .startsWith("WARN")
                        .contains("[channels.telegram.api_base]", "needs a restart")
                        .doesNotContain("elsewhere"));
        assertThat(gateway.config().channel("telegram").options()).containsEntry("api_base", tg.apiBase());
        // access settings are read per message, so they apply now
        assertThat(gateway.config().channel("telegram").access()).isEqualTo(allowlist);
    }
}

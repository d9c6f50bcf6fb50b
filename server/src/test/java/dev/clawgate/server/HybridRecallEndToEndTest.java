package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.Relevance;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hybrid recall through the real gateway with the local model of the {@code embeddings} module (SPEC ME-4, ME-5): a
 * question that shares no word with a memory is told that memory in its {@code [Memory context]}.
 */
class HybridRecallEndToEndTest extends TelegramGatewayFixture {
    static final String MEMORY = "My flight to Tokyo leaves on Friday morning";
    static final String PARAPHRASE = "When does my plane to Japan depart?";

    private String systemPrompt(int n) {
        RecordedRequest r = model.awaitRequests(n, Duration.ofSeconds(30)).stream()
                .filter(RecordedRequest::isChatCompletion)
                .toList()
                .get(n - 1);
        JsonNode first = r.messages().get(0);
        return first.path("content").asText();
    }

    private ClawgateConfig withEmbedder(String embedder) {
        ClawgateConfig c = config(Map.of());
        return c.withMemory(c.memory().withEmbedding(c.memory().embedding().withEmbedder(embedder)));
    }

    @Test
    void aParaphrasedQuestionRecallsTheRightMemoryThroughTheGateway() throws Exception {
        // SPEC ME-5: no shared keyword, so only the vector half can find it
        Set<String> shared = new HashSet<>(Relevance.queryTerms(PARAPHRASE));
        shared.retainAll(new HashSet<>(Relevance.indexTerms("k", MEMORY, MemoryEntry.CONVERSATION)));
        assertThat(shared).isEmpty();
        model.enqueue(Reply.text("Noted."), Reply.text("Friday morning."));
        start(withEmbedder(EmbeddingSettings.LOCAL));
        assertThat(gateway.memoryRecall().mode()).startsWith("hybrid: local model");

        tg.sendText(dm, alice, MEMORY);
        awaitSent(dm, 1);
        // SPEC ME-6: the consolidation worker embeds the turn's memory after the reply, off its path
        await().atMost(Duration.ofSeconds(60))
                .until(() -> gateway.memoryRecall()
                                .indexer()
                                .orElseThrow()
                                .progress()
                                .embedded()
                        == 1);
        // the saved message was the turn's query: its vector is the query's, the model ran once for that text
        assertThat(gateway.memoryRecall().indexer().orElseThrow().stats().reused())
                .isEqualTo(1);

        tg.sendText(dm, alice, PARAPHRASE);
        awaitSent(dm, 2);
        assertThat(systemPrompt(2))
                .contains("[Memory context]\n- telegram_111_")
                .endsWith(": " + MEMORY);
    }

    @Test
    void withoutAnEmbedderTheGatewayRecallsByKeywordAlone() throws Exception {
        // SPEC ME-5: memory.embedder = "none" is the gateway without the embeddings module: keyword recall, as before
        model.enqueue(Reply.text("Noted."), Reply.text("No idea."), Reply.text("Friday."));
        start(withEmbedder(EmbeddingSettings.NONE));
        assertThat(gateway.memoryRecall().mode()).isEqualTo("keyword only: memory.embedder = \"none\"");
        assertThat(gateway.memoryRecall().indexer()).isEmpty();

        tg.sendText(dm, alice, MEMORY);
        awaitSent(dm, 1);
        tg.sendText(dm, alice, PARAPHRASE);
        awaitSent(dm, 2);
        assertThat(systemPrompt(2)).doesNotContain("[Memory context]");
        tg.sendText(dm, alice, "Which day does my flight to Tokyo leave?");
        awaitSent(dm, 3);
        assertThat(systemPrompt(3)).contains("[Memory context]").endsWith(": " + MEMORY);
    }

    @Test
    void aScopeAlreadyPastTheAnnThresholdIsIndexedAtStartBeforeAnyRecall() throws Exception {
        // SPEC ME-5: the gateway builds the HNSW index of a large scope in the background from its start, not at the
        // scope's first recall; a smaller scope stays with the exact scan; /api/status shows it
        var embedder = dev.clawgate.core.embedding.Embedders.select(EmbeddingSettings.defaults(), Map.of())
                .embedder()
                .orElseThrow();
        String modelId = embedder.modelId();
        int dims = embedder.dimensions();
        embedder.close();
        ClawgateConfig c = config(Map.of());
        ClawgateConfig cfg = c.withMemory(c.memory().withEmbedding(new EmbeddingSettings("local", null, 0.5, 25, 20)));
        var big = dev.clawgate.core.memory.MemoryScope.sender("telegram", "carol");
        var small = dev.clawgate.core.memory.MemoryScope.sender("telegram", "dave");
        try (var store = dev.clawgate.store.Stores.open(null, cfg.gateway().dataDir())) {
            java.util.Random rnd = new java.util.Random(2);
            for (int i = 0; i < 25; i++) store.memory().store(big, "c" + i, "carol memory " + i, MemoryEntry.CORE);
            for (int i = 0; i < 3; i++) store.memory().store(small, "d" + i, "dave memory " + i, MemoryEntry.CORE);
            for (var p : store.memory().vectors().pending(modelId, 0, 100)) {
                float[] v = new float[dims];
                for (int d = 0; d < dims; d++) v[d] = (float) rnd.nextGaussian();
                assertThat(store.memory().vectors().put(p.id(), p.contentHash(), modelId, v))
                        .isTrue();
            }
        }

        int port = serve(cfg);
        var vectors = gateway.store().memory().vectors();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> vectors.largeScopes(modelId, 20)
                        .equals(java.util.List.of(new dev.clawgate.core.memory.MemoryVectors.LargeScope(
                                big.id(), 25, dev.clawgate.core.memory.MemoryVectors.Search.INDEX_READY))));
        assertThat(model.chatRequests()).isEmpty(); // no turn, so no recall, asked for it

        // OP-3: /api/status says the same, with the recall mode and the back-fill's progress
        var r = GatewayHarness.HTTP.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/api/status"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode memory = GatewayHarness.JSON.readTree(r.body()).path("memory");
        assertThat(memory.path("recall").asText())
                .isEqualTo(gateway.memoryRecall().mode());
        assertThat(memory.path("model").asText()).isEqualTo(modelId);
        assertThat(memory.path("embedded").asLong()).isEqualTo(28);
        assertThat(memory.path("entries").asLong()).isEqualTo(28);
        assertThat(memory.path("ann_threshold").asInt()).isEqualTo(20);
        assertThat(memory.path("large_scopes")).hasSize(1);
        assertThat(memory.path("large_scopes").path(0).path("scope").asText()).isEqualTo(big.id());
        assertThat(memory.path("large_scopes").path(0).path("vectors").asLong()).isEqualTo(25);
        assertThat(memory.path("large_scopes").path(0).path("search").asText()).isEqualTo("index_ready");
    }
}

package dev.clawgate.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.Embedders;
import dev.clawgate.core.embedding.EmbeddingException;
import dev.clawgate.core.memory.Vectors;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.RecordedRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code memory.embedder = "<provider>"} (SPEC ME-5): the OpenAI-compatible {@code /v1/embeddings} client against the
 * testkit's fake over HTTP on loopback, in OpenAI's wire format.
 */
class OpenAiEmbedderTest {
    final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AfterEach
    void close() {
        server.close();
    }

    ProviderSettings provider(String key) {
        return new ProviderSettings("remote", "openai", server.baseUrl(), key, null, "gpt-test", 10);
    }

    @Test
    void aBatchIsOnePostOfTheModelAndTheInputsAndComesBackInInputOrder() throws Exception {
        // SPEC ME-5: the back-fill embeds in batches; one request per batch, the key as a bearer token
        server.requireApiKey("sk-test");
        try (Embedder e = new OpenAiEmbedder(provider("sk-test"), "text-embedding-3-small")) {
            List<float[]> vectors = e.embedAll(List.of("my cat Pixel", "the train to Lisbon", "my cat sleeps"));

            RecordedRequest req = server.embeddingRequests().getFirst();
            assertThat(server.embeddingRequests()).hasSize(1);
            assertThat(req.header("authorization")).isEqualTo("Bearer sk-test");
            assertThat(req.body().path("model").asText()).isEqualTo("text-embedding-3-small");
            assertThat(req.body().path("input"))
                    .extracting(n -> n.asText())
                    .containsExactly("my cat Pixel", "the train to Lisbon", "my cat sleeps");
            assertThat(vectors).hasSize(3).allSatisfy(v -> assertThat(v).hasSize(16));
            float[] cat = Vectors.unit(vectors.get(0));
            assertThat(Vectors.dot(cat, Vectors.unit(vectors.get(2))))
                    .isGreaterThan(Vectors.dot(cat, Vectors.unit(vectors.get(1))));
            assertThat(e.dimensions()).isEqualTo(16);
            assertThat(e.modelId()).isEqualTo("text-embedding-3-small@127.0.0.1");
        }
    }

    @Test
    void oneTextIsEmbeddedWithTheDefaultModelWhenNoneIsNamed() throws Exception {
        // SPEC ME-5: memory.embedding_model is optional
        server.embedWith(text -> new float[] {text.length(), 1, 0});
        try (Embedder e = new OpenAiEmbedder(provider(null), null)) {
            assertThat(e.embed("hello there")).containsExactly(11f, 1f, 0f);
        }
        assertThat(server.lastRequest().body().path("model").asText()).isEqualTo(OpenAiEmbedder.DEFAULT_MODEL);
        assertThat(server.lastRequest().header("authorization")).isNull();
    }

    @Test
    void aRefusedKeyIsAnEmbeddingErrorThatNamesTheStatusAndNotTheKey() {
        // SPEC ME-5: a failing embedder leaves recall to keywords; the key never reaches a message
        server.requireApiKey("sk-right");
        try (Embedder e = new OpenAiEmbedder(provider("sk-wrong-secret"), null)) {
            assertThatThrownBy(() -> e.embed("anything at all"))
                    .isInstanceOf(EmbeddingException.class)
                    .hasMessageContaining("HTTP 401")
                    .hasMessageNotContaining("sk-wrong-secret");
        }
    }

    @Test
    void aServerThatIsGoneIsAnEmbeddingError() {
        // SPEC ME-5: no answer is an error the indexer retries later, not a crash
        ProviderSettings gone = provider(null);
        server.close();
        try (Embedder e = new OpenAiEmbedder(gone, null)) {
            assertThatThrownBy(() -> e.embed("anything at all"))
                    .isInstanceOf(EmbeddingException.class)
                    .hasMessageContaining("did not answer");
        }
    }

    @Test
    void memoryEmbedderNamingAProviderOfKindOpenAiSelectsIt() throws Exception {
        // SPEC ME-5: [memory] embedder = "<provider>", found through the EmbedderFactory service
        Embedders.Selection s =
                Embedders.select(EmbeddingSettings.defaults().withEmbedder("remote"), Map.of("remote", provider(null)));

        assertThat(s.fault()).isFalse();
        assertThat(s.mode()).startsWith("hybrid: provider 'remote', model text-embedding-3-small@127.0.0.1");
        try (Embedder e = s.embedder().orElseThrow()) {
            assertThat(e.embed("the train to Lisbon")).hasSize(16);
        }
        assertThat(server.embeddingRequests()).hasSize(1);
    }
}

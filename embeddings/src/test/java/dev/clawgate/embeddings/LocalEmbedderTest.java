package dev.clawgate.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.Embedders;
import dev.clawgate.core.memory.Vectors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LocalEmbedderTest {
    static Embedder model;

    @BeforeAll
    static void load() throws Exception {
        model = new LocalEmbedder();
    }

    @AfterAll
    static void close() {
        model.close();
    }

    static double cosine(String a, String b) throws Exception {
        return Vectors.dot(Vectors.unit(model.embed(a)), Vectors.unit(model.embed(b)));
    }

    @Test
    void aParaphraseWithNoSharedWordIsCloserThanAnUnrelatedSentence() throws Exception {
        // SPEC ME-5: the local model runs offline and places a paraphrase near its memory
        String memory = "My daughter Mia starts school in Lisbon in September";
        double paraphrase = cosine(memory, "When does my kid's term begin?");
        double unrelated = cosine(memory, "The deploy window for the billing service is Tuesday night");
        double greeting = cosine(memory, "hello, how are you doing today?");
        System.out.printf("paraphrase %.3f unrelated %.3f greeting %.3f%n", paraphrase, unrelated, greeting);
        assertThat(paraphrase).isGreaterThan(unrelated + 0.1).isGreaterThan(greeting + 0.05);
        assertThat(LocalEmbedder.CALIBRATION.relevance(greeting)).isLessThan(0.4);
        assertThat(LocalEmbedder.CALIBRATION.relevance(unrelated)).isZero();
    }

    @Test
    void vectorsHaveTheDeclaredLengthAndABatchEqualsSingleCalls() throws Exception {
        // SPEC ME-5: one vector per text, in order, of dimensions() floats
        List<float[]> batch = model.embedAll(List.of("the cat sat on the mat", "stock prices fell sharply"));
        assertThat(batch).hasSize(2);
        assertThat(batch.get(0)).hasSize(model.dimensions());
        assertThat(Vectors.dot(Vectors.unit(batch.get(1)), Vectors.unit(model.embed("stock prices fell sharply"))))
                .isGreaterThan(0.999);
    }

    @Test
    void ourSessionGivesThePackagedModelsVectors() throws Exception {
        // SPEC ME-5: the session made with our options (one thread, no spinning) runs the same weights and tokenizer as
        // the library's own: a vector stored by either matches the other's query
        var packaged = new dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel(
                Runnable::run);
        for (String text : List.of("the deploy window is Tuesday night", "Mia starts school in Lisbon", "ok")) {
            float[] theirs = packaged.embed(text).content().vector();
            assertThat(Vectors.dot(Vectors.unit(theirs), Vectors.unit(model.embed(text))))
                    .as(text)
                    .isGreaterThan(0.9999);
        }
    }

    @Test
    void theLocalEmbedderIsFoundByServiceLoaderAsTheDefault() {
        // SPEC ME-5: memory.embedder = "local" (the default) finds this module's factory
        Embedders.Selection s = Embedders.select(EmbeddingSettings.defaults(), Map.of());
        assertThat(s.embedder()).isPresent();
        assertThat(s.mode()).startsWith("hybrid: local model " + LocalEmbedder.MODEL_ID);
        s.embedder().get().close();
    }
}

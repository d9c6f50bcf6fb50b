package dev.clawgate.core.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.ProviderSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddersTest {
    static final EmbedderFactory LOCAL = new EmbedderFactory() {
        @Override
        public String kind() {
            return LOCAL;
        }

        @Override
        public Embedder create(ProviderSettings provider, String model) {
            return new Embedder() {
                @Override
                public String modelId() {
                    return "tiny@1";
                }

                @Override
                public int dimensions() {
                    return 2;
                }

                @Override
                public float[] embed(String text) {
                    return new float[] {1, 0};
                }
            };
        }
    };

    @Test
    void withoutTheEmbeddingsModuleRecallIsKeywordOnlyAndThatIsNoFault() {
        // SPEC ME-5: the gateway works without the module on the class path, keyword only, and says so
        Embedders.Selection s = Embedders.select(EmbeddingSettings.defaults(), Map.of(), List.of());
        assertThat(s.embedder()).isEmpty();
        assertThat(s.fault()).isFalse();
        assertThat(s.mode()).isEqualTo("keyword only: the embeddings module is not on the class path");
    }

    @Test
    void localFindsTheLocalFactoryAndNoneTurnsTheVectorHalfOff() {
        // SPEC ME-5: memory.embedder = "local" (default) | "none"
        assertThat(Embedders.select(EmbeddingSettings.defaults(), Map.of(), List.of(LOCAL))
                        .mode())
                .isEqualTo("hybrid: local model tiny@1 (2 dimensions)");
        Embedders.Selection none =
                Embedders.select(EmbeddingSettings.defaults().withEmbedder("none"), Map.of(), List.of(LOCAL));
        assertThat(none.embedder()).isEmpty();
        assertThat(none.mode()).isEqualTo("keyword only: memory.embedder = \"none\"");
    }

    @Test
    void anEmbedderNamingNoProviderOrAKindWithoutFactoryIsAFaultThatFallsBackToKeywords() {
        // SPEC ME-5: "<provider name>" needs a provider whose kind serves embeddings
        ProviderSettings anthropic =
                new ProviderSettings("claude", "anthropic", null, "k", null, "m", 60, null, null, null);
        Embedders.Selection unknown =
                Embedders.select(EmbeddingSettings.defaults().withEmbedder("nope"), Map.of(), List.of(LOCAL));
        Embedders.Selection noKind = Embedders.select(
                EmbeddingSettings.defaults().withEmbedder("claude"), Map.of("claude", anthropic), List.of(LOCAL));

        assertThat(unknown.fault()).isTrue();
        assertThat(unknown.mode()).contains("neither \"local\", \"none\" nor a provider");
        assertThat(noKind.fault()).isTrue();
        assertThat(noKind.mode()).isEqualTo("keyword only: no embedder serves providers of kind 'anthropic'");
    }
}

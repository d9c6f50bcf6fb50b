package dev.clawgate.embeddings;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.EmbeddingException;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * all-MiniLM-L6-v2, quantised to 8 bits (23 MB), in the jar with its tokenizer; ONNX Runtime runs it on the CPU, with
 * no network (SPEC ME-5). 384 dimensions; a sentence takes a few milliseconds. Texts longer than the model's 256 word
 * pieces are cut by the model (a memory is at most {@code memory.max_entry_chars}; its start says what it is about).
 */
public final class LocalEmbedder implements Embedder {
    /** The model and the release of the jar it ships in: a new release may ship other weights. */
    public static final String MODEL_ID = "all-minilm-l6-v2-q@langchain4j-1.19.0-beta29";

    static final int DIMENSIONS = 384;
    /** The weights and tokenizer the model's jar holds. */
    static final String WEIGHTS = "all-minilm-l6-v2-q.onnx";

    static final String TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";
    /**
     * Measured on bench's labelled set (bench/RESULTS.md): a query's best wrong memory has a median cosine of 0.40, a
     * paraphrase with no shared word 0.44, a greeting at most 0.34; with this mapping a memory found by meaning alone
     * is injected from a cosine of 0.42 (min_relevance 0.4), the best of the tried mappings at trading recalled
     * paraphrases against wrong memories injected.
     */
    static final Calibration CALIBRATION = new Calibration(0.3, 0.6);

    /**
     * One model per JVM, loaded on first use (about a second, and 23 MB of weights): a gateway that never embeds pays
     * nothing, and its start is not held up by it. The model is thread-safe.
     */
    private static final class Shared {
        static final OnnxModel MODEL = OnnxModel.load();
    }

    /**
     * The packaged model in a session of our own options: one thread per run, which does not spin while it waits. The
     * library's session uses ONNX Runtime's defaults, a pool of one thread per core that spins between runs; on a
     * gateway, where turns already embed concurrently, that pool costs more CPU than it saves time (bench/RESULTS.md:
     * 4.8 against 3.3 ms of CPU per sentence on 2 cores).
     */
    static final class OnnxModel extends AbstractInProcessEmbeddingModel {
        private final OnnxBertBiEncoder encoder;

        private OnnxModel(OnnxBertBiEncoder encoder) {
            super(Runnable::run); // runs on the calling thread: the indexer and a turn's recall are off other paths
            this.encoder = encoder;
        }

        static OnnxModel load() {
            ClassLoader loader = LocalEmbedder.class.getClassLoader();
            try (InputStream weights = loader.getResourceAsStream(WEIGHTS);
                    InputStream tokenizer = loader.getResourceAsStream(TOKENIZER)) {
                if (weights == null || tokenizer == null)
                    throw new IllegalStateException(WEIGHTS + " or its tokenizer is not on the class path");
                OrtEnvironment env = OrtEnvironment.getEnvironment();
                OrtSession.SessionOptions options = new OrtSession.SessionOptions();
                options.setIntraOpNumThreads(1);
                options.setInterOpNumThreads(1);
                options.addConfigEntry("session.intra_op.allow_spinning", "0");
                options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                OrtSession session = env.createSession(weights.readAllBytes(), options);
                return new OnnxModel(new OnnxBertBiEncoder(env, session, tokenizer, PoolingMode.MEAN));
            } catch (IOException | OrtException e) {
                throw new IllegalStateException("the local embedding model could not be loaded: " + e.getMessage(), e);
            }
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }

        @Override
        protected Integer knownDimension() {
            return DIMENSIONS;
        }
    }

    /** @throws EmbeddingException when the model's weights are not in the class path */
    public LocalEmbedder() throws EmbeddingException {
        if (LocalEmbedder.class.getClassLoader().getResource(WEIGHTS) == null)
            throw new EmbeddingException("the model " + WEIGHTS + " is not on the class path");
    }

    private static OnnxModel model() throws EmbeddingException {
        try {
            return Shared.MODEL;
        } catch (LinkageError | IllegalStateException e) {
            throw new EmbeddingException("the local embedding model could not be loaded: " + e, e);
        }
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public float[] embed(String text) throws EmbeddingException {
        try {
            return model().embed(text).content().vector();
        } catch (RuntimeException e) {
            throw new EmbeddingException("the local embedding model failed: " + e.getMessage(), e);
        }
    }

    @Override
    public List<float[]> embedAll(List<String> texts) throws EmbeddingException {
        try {
            return model().embedAll(texts.stream().map(TextSegment::from).toList()).content().stream()
                    .map(Embedding::vector)
                    .toList();
        } catch (RuntimeException e) {
            throw new EmbeddingException("the local embedding model failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Calibration calibration() {
        return CALIBRATION;
    }
}

package dev.clawgate.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.EmbeddingException;
import dev.clawgate.core.run.HttpClients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A remote embedder (SPEC ME-5): {@code POST {base_url}/embeddings} of any OpenAI-compatible server (OpenAI, Ollama,
 * vLLM, llama.cpp, LM Studio), for {@code memory.embedder = "<provider name>"}. Errors say the status, never the key or
 * the body (which may echo the key).
 */
public final class OpenAiEmbedder implements Embedder {
    /** OpenAI's small embedding model, when {@code memory.embedding_model} names none. */
    public static final String DEFAULT_MODEL = "text-embedding-3-small";

    private static final ObjectMapper JSON = new ObjectMapper();
    private final URI endpoint;
    private final String apiKey;
    private final String model;
    private final String modelId;
    private final Duration timeout;
    private final HttpClient http;
    private volatile int dimensions;

    public OpenAiEmbedder(ProviderSettings settings, String model) {
        String base = settings.baseUrl() == null || settings.baseUrl().isBlank()
                ? OpenAiProvider.DEFAULT_BASE_URL
                : settings.baseUrl().strip();
        this.endpoint = URI.create(base.replaceAll("/+$", "") + "/embeddings");
        this.apiKey = settings.apiKey();
        this.model = model == null ? DEFAULT_MODEL : model;
        this.modelId = this.model + "@" + endpoint.getHost();
        this.timeout = Duration.ofSeconds(Math.max(1, settings.timeoutSecs()));
        this.http = HttpClients.builder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    @Override
    public String modelId() {
        return modelId;
    }

    /** Known after the first answer; 0 before. */
    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public float[] embed(String text) throws EmbeddingException {
        return embedAll(List.of(text)).getFirst();
    }

    @Override
    public List<float[]> embedAll(List<String> texts) throws EmbeddingException {
        ObjectNode body = JSON.createObjectNode().put("model", model);
        texts.forEach(body.putArray("input")::add);
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (apiKey != null) request.header("authorization", "Bearer " + apiKey);
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new EmbeddingException("the embeddings API at " + endpoint.getHost() + " did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddingException("interrupted while embedding", e);
        }
        if (response.statusCode() / 100 != 2)
            throw new EmbeddingException(
                    "the embeddings API at " + endpoint.getHost() + " answered HTTP " + response.statusCode());
        try {
            JsonNode data = JSON.readTree(response.body()).path("data");
            float[][] out = new float[texts.size()][];
            for (JsonNode item : data) {
                JsonNode emb = item.path("embedding");
                float[] v = new float[emb.size()];
                for (int i = 0; i < v.length; i++) v[i] = (float) emb.get(i).asDouble();
                out[item.path("index").asInt()] = v;
            }
            List<float[]> vectors = new ArrayList<>(texts.size());
            for (float[] v : out) {
                if (v == null) throw new EmbeddingException("the embeddings API left an input without a vector");
                vectors.add(v);
            }
            dimensions = vectors.getFirst().length;
            return vectors;
        } catch (IOException | RuntimeException e) {
            throw new EmbeddingException("the embeddings API's answer could not be read: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        http.close();
    }
}

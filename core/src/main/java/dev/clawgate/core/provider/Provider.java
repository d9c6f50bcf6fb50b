package dev.clawgate.core.provider;

import dev.clawgate.core.run.CancelToken;
import java.util.List;

/**
 * A model API (SPEC SP-4). Implementations speak one wire format and map their errors to
 * {@link ProviderException.Kind}; they must abort the HTTP exchange when {@code cancel} fires (SPEC AG-2) and then
 * throw {@link dev.clawgate.core.run.CancelledException}.
 */
public interface Provider {
    /** The configured name, e.g. {@code openai}. */
    String name();

    ProviderCapabilities capabilities();

    ChatResponse chat(ChatRequest request, StreamObserver observer, CancelToken cancel) throws ProviderException;

    /** The models this provider offers, for {@code /models}; may call the API. */
    default List<String> listModels(CancelToken cancel) throws ProviderException {
        return List.of();
    }
}

package dev.clawgate.core.testing;

import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderCapabilities;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An in-process Provider for core's unit tests: answers from a script and records every request. The wire protocol is
 * proven against the fake OpenAI server in the providers and server tests.
 */
public final class ScriptedProvider implements Provider {
    /** One scripted answer: a response, or an exception to throw. */
    public sealed interface Step permits Answer, Failure, Work, StreamedFailure {}

    /** Streams {@code deltas}, then fails: a provider that broke mid-reply. */
    public record StreamedFailure(List<String> deltas, ProviderException error) implements Step {}

    /** An answer after {@code during} ran with the call's stream observer: a slow model, reasoning deltas. */
    public record Work(java.util.function.Consumer<StreamObserver> during, ChatResponse response) implements Step {}

    public record Answer(ChatResponse response, List<String> deltas) implements Step {}

    public record Failure(ProviderException error) implements Step {}

    private final String name;
    private final ProviderCapabilities caps;
    private final Deque<Step> script = new ArrayDeque<>();
    private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

    public ScriptedProvider(String name, ProviderCapabilities caps) {
        this.name = name;
        this.caps = caps;
    }

    public ScriptedProvider answer(ChatResponse r, String... deltas) {
        script.add(new Answer(r, List.of(deltas)));
        return this;
    }

    public ScriptedProvider text(String text) {
        return answer(ChatResponse.text(text));
    }

    public ScriptedProvider working(java.util.function.Consumer<StreamObserver> during, ChatResponse response) {
        script.add(new Work(during, response));
        return this;
    }

    public ScriptedProvider failAfterStreaming(ProviderException e, String... deltas) {
        script.add(new StreamedFailure(List.of(deltas), e));
        return this;
    }

    public ScriptedProvider fail(ProviderException e) {
        script.add(new Failure(e));
        return this;
    }

    public List<ChatRequest> requests() {
        return requests;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ProviderCapabilities capabilities() {
        return caps;
    }

    @Override
    public ChatResponse chat(ChatRequest request, StreamObserver observer, CancelToken cancel)
            throws ProviderException {
        requests.add(request);
        cancel.throwIfCancelled();
        Step step = script.poll();
        if (step == null) throw new AssertionError("the script of " + name + " ran out at request " + requests.size());
        return switch (step) {
            case Failure f -> throw f.error();
            case StreamedFailure f -> {
                f.deltas().forEach(observer::onTextDelta);
                throw f.error();
            }
            case Work w -> {
                w.during().accept(observer);
                yield w.response();
            }
            case Answer a -> {
                a.deltas().forEach(observer::onTextDelta);
                yield a.response();
            }
        };
    }
}

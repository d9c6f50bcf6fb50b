package dev.clawgate.core.internal.agent;

import dev.clawgate.core.internal.trace.Phase;
import dev.clawgate.core.internal.trace.PhaseScope;
import dev.clawgate.core.internal.trace.TurnPhases;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One model call with the retry policy around it (SPEC SP-4): a rate limit waits for the provider's retry-after
 * (bounded) and tries again, a transient error tries once more, and then the next provider of the fallback chain is
 * asked. A call that already streamed text is never retried nor handed to a fallback: its text may already be on the
 * chat (a streamed block, a draft), and the user must never see a reply start twice (SPEC OUT-12).
 */
public class ModelCaller {
    private static final Logger log = LoggerFactory.getLogger(ModelCaller.class);

    private final int maxRateLimitRetries;
    private final Duration maxRetryAfter;
    private final Duration transientBackoff;
    private final ModelAttempts attempts;

    public ModelCaller(
            int maxRateLimitRetries, Duration maxRetryAfter, Duration transientBackoff, ModelAttempts attempts) {
        this.maxRateLimitRetries = maxRateLimitRetries;
        this.maxRetryAfter = maxRetryAfter;
        this.transientBackoff = transientBackoff;
        this.attempts = attempts == null ? ModelAttempts.NONE : attempts;
    }

    public ModelCaller(int maxRateLimitRetries, Duration maxRetryAfter, Duration transientBackoff) {
        this(maxRateLimitRetries, maxRetryAfter, transientBackoff, ModelAttempts.NONE);
    }

    public ModelCaller() {
        this(ModelAttempts.NONE);
    }

    /** The default retry policy, each attempt reported to {@code attempts}. */
    public ModelCaller(ModelAttempts attempts) {
        this(2, Duration.ofSeconds(60), Duration.ofSeconds(1), attempts);
    }

    public ChatResponse call(List<ModelRoute> routes, ChatRequest request, StreamObserver observer, CancelToken cancel)
            throws ProviderException {
        ProviderException last = null;
        int index = -1;
        for (ModelRoute route : routes) {
            index++;
            ChatRequest req = new ChatRequest(
                    route.model(), request.messages(), request.tools(), request.stream(), request.temperature());
            int rateLimited = 0;
            int transients = 0;
            while (true) {
                cancel.throwIfCancelled();
                AtomicBoolean streamed = new AtomicBoolean();
                StreamObserver tracking = new StreamObserver() {
                    @Override
                    public void onTextDelta(String delta) {
                        streamed.set(true);
                        observer.onTextDelta(delta);
                    }

                    @Override
                    public void onReasoningDelta(String delta) {
                        observer.onReasoningDelta(delta);
                    }
                };
                String provider = route.provider().name();
                long started = dev.clawgate.core.inspect.TurnTrail.current().now();
                int attempt = rateLimited + transients + 1;
                // SPEC OP-9: each attempt is a model call of the turn's trace
                try (PhaseScope phase = TurnPhases.begin(Phase.MODEL_CALL, provider + "/" + route.model())) {
                    try {
                        ChatResponse answer = route.provider().chat(req, tracking, cancel);
                        attempts.attempted(provider, route.model(), "ok");
                        InspectedCalls.model(started, provider, route.model(), index, attempt, req, answer, "ok");
                        phase.attribute("outcome", "ok");
                        phase.attribute(
                                "input_tokens", Long.toString(answer.usage().promptTokens()));
                        phase.attribute(
                                "output_tokens", Long.toString(answer.usage().completionTokens()));
                        return answer;
                    } catch (CancelledException e) {
                        attempts.attempted(provider, route.model(), "cancelled");
                        InspectedCalls.model(started, provider, route.model(), index, attempt, req, null, "cancelled");
                        phase.failed("cancelled");
                        throw e;
                    } catch (ProviderException e) {
                        String kind = e.kind().name().toLowerCase(java.util.Locale.ROOT);
                        attempts.attempted(provider, route.model(), kind);
                        InspectedCalls.model(started, provider, route.model(), index, attempt, req, null, kind);
                        phase.failed(kind);
                        throw e;
                    }
                } catch (ProviderException e) {
                    log.info(
                            "provider {} model {} attempt failed: {} ({})",
                            provider,
                            route.model(),
                            e.kind(),
                            e.getMessage());
                    last = e;
                    if (streamed.get() || !e.retryable()) throw e;
                    Duration wait;
                    if (e.kind() == ProviderException.Kind.RATE_LIMITED) {
                        Duration ra = e.retryAfter() == null ? Duration.ofSeconds(2) : e.retryAfter();
                        if (++rateLimited > maxRateLimitRetries || ra.compareTo(maxRetryAfter) > 0) break;
                        wait = ra;
                    } else {
                        if (++transients > 1) break;
                        wait = transientBackoff;
                    }
                    log.info(
                            "provider {} {}; retrying in {} ms",
                            route.provider().name(),
                            e.kind(),
                            wait.toMillis());
                    pause(wait, cancel);
                }
            }
            log.info(
                    "provider {} gave up ({}); trying the next in the fallback chain",
                    route.provider().name(),
                    last.kind());
        }
        throw last;
    }

    private static void pause(Duration d, CancelToken cancel) {
        try {
            if (cancel.await(d.toMillis(), TimeUnit.MILLISECONDS)) throw new CancelledException(cancel.reason());
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new CancelledException("interrupted");
        }
    }
}

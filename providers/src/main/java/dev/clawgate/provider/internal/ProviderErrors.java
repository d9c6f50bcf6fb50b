package dev.clawgate.provider.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderException.Kind;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;

/**
 * How a provider words its failures as {@link ProviderException}s: the provider's name in front, secrets out. The
 * failures of the exchange itself are worded alike for every API; each provider reads its own error bodies.
 */
public abstract class ProviderErrors implements Exchange.Failures {
    private static final ObjectMapper JSON = new ObjectMapper();

    protected final String provider;
    protected final SecretRedactor redactor;
    protected final Clock clock;

    protected ProviderErrors(String provider, SecretRedactor redactor, Clock clock) {
        this.provider = provider;
        this.redactor = redactor;
        this.clock = clock;
    }

    /** A non-2xx answer, from its status, headers and (bounded) body. */
    public abstract ProviderException fromHttp(int status, HttpHeaders headers, String body);

    /** An error sent inside a 200 answer, in a stream or as the whole body. */
    public abstract ProviderException fromStreamError(JsonNode error);

    @Override
    public ProviderException transport(String what, IOException e) {
        String detail = e.getMessage() == null
                ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + redactor.redact(e.getMessage());
        return new ProviderException(Kind.TRANSIENT, provider + ": " + what + " (" + detail + ")", 0, null, e);
    }

    @Override
    public ProviderException timeout(Duration after) {
        return new ProviderException(
                Kind.TRANSIENT, provider + ": no answer within " + after.toSeconds() + "s", 0, null, null);
    }

    /** An answer we cannot read: worth another try. */
    public ProviderException malformed(String what) {
        return new ProviderException(Kind.TRANSIENT, provider + ": " + what, 0, null, null);
    }

    /** A request that can never succeed as it is. */
    public ProviderException fatal(String what) {
        return new ProviderException(Kind.FATAL, provider + ": " + what, 0, null, null);
    }

    /**
     * The error an answer's body describes: a JSON body through {@code fromJson}, else its first line through
     * {@code fromText} (nothing from an HTML page, or an empty body).
     */
    protected static <E> E errorIn(String body, Function<JsonNode, E> fromJson, Function<String, E> fromText) {
        if (body == null || body.isBlank()) return fromText.apply("");
        String trimmed = body.strip();
        if (trimmed.startsWith("{")) {
            try {
                return fromJson.apply(JSON.readTree(trimmed));
            } catch (IOException e) {
                return fromText.apply(firstLine(trimmed));
            }
        }
        // an HTML error page from a proxy says nothing useful and may be long
        return fromText.apply(trimmed.startsWith("<") ? "" : firstLine(trimmed));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}

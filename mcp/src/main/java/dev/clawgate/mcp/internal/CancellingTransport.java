package dev.clawgate.mcp.internal;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Any transport, plus {@code notifications/cancelled} (SPEC AG-7, AG-2): it notes the JSON-RPC id of each
 * {@code tools/call} it sends, so a call the gateway gives up on (timeout, {@code /stop}) is cancelled on the server
 * too, not only abandoned. The SDK's client has no call for that; the id is found by the request object.
 */
final class CancellingTransport implements McpClientTransport {
    private static final Logger log = LoggerFactory.getLogger(CancellingTransport.class);
    private final McpClientTransport delegate;
    private final Map<McpSchema.CallToolRequest, Object> ids = Collections.synchronizedMap(new IdentityHashMap<>());

    CancellingTransport(McpClientTransport delegate) {
        this.delegate = delegate;
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest r && r.params() instanceof McpSchema.CallToolRequest call) {
            ids.put(call, r.id());
        }
        return delegate.sendMessage(message);
    }

    /** The call has an answer: nothing to cancel any more. */
    void answered(McpSchema.CallToolRequest call) {
        ids.remove(call);
    }

    /** Tells the server to stop working on {@code call}, if it was sent and not answered. */
    void cancel(McpSchema.CallToolRequest call, String reason) {
        Object id = ids.remove(call);
        if (id == null) return;
        var note = new McpSchema.JSONRPCNotification(
                McpSchema.JSONRPC_VERSION, "notifications/cancelled", Map.of("requestId", id, "reason", reason));
        delegate.sendMessage(note).subscribe(null, e -> log.debug("cancelling a call failed: {}", e.toString()));
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return delegate.connect(handler);
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return delegate.unmarshalFrom(data, type);
    }
}

package dev.clawgate.mcp.internal;

import dev.clawgate.core.config.McpServerSettings;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.net.URI;
import java.time.Duration;

/** The streamable-HTTP transport of an MCP server (SPEC AG-7): its {@code url}, its {@code headers} on each request. */
final class HttpTransports {
    private HttpTransports() {}

    static McpClientTransport create(McpServerSettings settings, McpJsonMapper json) {
        URI uri = URI.create(settings.url());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String endpoint = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return HttpClientStreamableHttpTransport.builder(base)
                .endpoint(endpoint)
                .jsonMapper(json)
                .connectTimeout(Duration.ofSeconds(10))
                .httpRequestCustomizer((request, method, target, body, context) ->
                        settings.headers().forEach(request::header))
                .build();
    }
}

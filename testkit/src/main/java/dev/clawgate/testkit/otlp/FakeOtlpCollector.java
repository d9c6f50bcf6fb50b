package dev.clawgate.testkit.otlp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;

/**
 * An OpenTelemetry collector's OTLP/HTTP traces receiver on a loopback port (protocol {@code http/protobuf}): it takes
 * {@code POST /v1/traces} with an {@code ExportTraceServiceRequest} body (gzip or not), answers 200 with an empty
 * {@code ExportTraceServiceResponse} as the OTLP specification says, and keeps every span it decoded. Anything else is
 * answered as a collector would: 404 for another path, 405 for another method, 415 for another content type, 400 for a
 * body that does not decode.
 */
public final class FakeOtlpCollector implements AutoCloseable {
    public static final String TRACES_PATH = "/v1/traces";
    private static final HexFormat HEX = HexFormat.of();

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<String> rejected = new CopyOnWriteArrayList<>();

    private FakeOtlpCollector(HttpServer server) {
        this.server = server;
    }

    public static FakeOtlpCollector start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FakeOtlpCollector collector = new FakeOtlpCollector(server);
            server.createContext("/", collector::handle);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return collector;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the fake OTLP collector", e);
        }
    }

    /** The base URL, e.g. {@code http://127.0.0.1:4318}: what {@code otlp_endpoint} is set to. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every span received so far, in the order they came. */
    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /** The spans of one trace. */
    public List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    /** Why each refused request was refused (wrong path, type, or an undecodable body). */
    public List<String> rejected() {
        return List.copyOf(rejected);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!TRACES_PATH.equals(exchange.getRequestURI().getPath())) {
                answer(exchange, 404, "not found: " + exchange.getRequestURI().getPath());
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                answer(exchange, 405, "method " + exchange.getRequestMethod());
                return;
            }
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (type == null || !type.startsWith("application/x-protobuf")) {
                answer(exchange, 415, "content type " + type);
                return;
            }
            ExportTraceServiceRequest request;
            try (InputStream body = body(exchange)) {
                request = ExportTraceServiceRequest.parseFrom(body);
            } catch (IOException e) {
                answer(exchange, 400, "undecodable body: " + e.getMessage());
                return;
            }
            spans.addAll(decode(request));
            byte[] ok = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            if (ok.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(ok);
                }
            }
        }
    }

    private static InputStream body(HttpExchange exchange) throws IOException {
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        InputStream in = exchange.getRequestBody();
        return "gzip".equalsIgnoreCase(encoding) ? new GZIPInputStream(in) : in;
    }

    private void answer(HttpExchange exchange, int status, String why) throws IOException {
        rejected.add(status + " " + why);
        exchange.sendResponseHeaders(status, -1);
    }

    private static List<ReceivedSpan> decode(ExportTraceServiceRequest request) {
        List<ReceivedSpan> out = new ArrayList<>();
        for (ResourceSpans rs : request.getResourceSpansList()) {
            String service = attributes(rs.getResource()).getOrDefault("service.name", "");
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span s : ss.getSpansList()) {
                    out.add(new ReceivedSpan(
                            HEX.formatHex(s.getTraceId().toByteArray()),
                            HEX.formatHex(s.getSpanId().toByteArray()),
                            HEX.formatHex(s.getParentSpanId().toByteArray()),
                            s.getName(),
                            attributes(s.getAttributesList()),
                            s.getStartTimeUnixNano(),
                            s.getEndTimeUnixNano(),
                            s.getStatus().getCode() == Status.StatusCode.STATUS_CODE_ERROR,
                            service));
                }
            }
        }
        return out;
    }

    private static Map<String, String> attributes(Resource resource) {
        return attributes(resource.getAttributesList());
    }

    private static Map<String, String> attributes(List<KeyValue> list) {
        Map<String, String> out = new LinkedHashMap<>();
        for (KeyValue kv : list) out.put(kv.getKey(), text(kv.getValue()));
        return out;
    }

    private static String text(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            default -> v.toString();
        };
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

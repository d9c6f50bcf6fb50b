package dev.clawgate.provider.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads server-sent events one at a time as the bytes arrive (the WHATWG event-stream format). */
public final class ServerSentEvents {
    /** One dispatched event; {@code type} is {@code message} unless an {@code event:} line said otherwise. */
    public record Event(String type, String data) {}

    private final BufferedReader reader;

    public ServerSentEvents(InputStream in) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /** The next event, or null at the end of the stream. */
    public Event next() throws IOException {
        StringBuilder data = null;
        String type = "message";
        for (String line; (line = reader.readLine()) != null; ) {
            if (line.isEmpty()) {
                if (data != null) return new Event(type, data.toString());
                type = "message";
                continue;
            }
            if (line.startsWith(":")) continue;
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) value = value.substring(1);
            switch (field) {
                case "data" -> {
                    if (data == null) data = new StringBuilder(value);
                    else data.append('\n').append(value);
                }
                case "event" -> type = value;
                default -> {
                    /* id and retry mean nothing to a one-shot completion stream */
                }
            }
        }
        return data == null ? null : new Event(type, data.toString());
    }
}

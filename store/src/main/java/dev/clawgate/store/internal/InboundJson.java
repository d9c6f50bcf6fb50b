package dev.clawgate.store.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.StoreException;

/** The inbox payload: a whole {@link InboundMessage} (attachments and raw payload included) as JSON text. */
final class InboundJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            // ISO-8601 text keeps nanoseconds and stays readable in the database
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            // a payload written by a newer model version still loads
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private InboundJson() {}

    static String write(InboundMessage message) {
        try {
            return MAPPER.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            throw new StoreException("cannot serialise an inbound message from channel " + message.channel(), e);
        }
    }

    static InboundMessage read(long inboxId, String json) {
        try {
            return MAPPER.readValue(json, InboundMessage.class);
        } catch (JsonProcessingException e) {
            throw new StoreException("the payload of inbox record " + inboxId + " is not a readable message", e);
        }
    }
}

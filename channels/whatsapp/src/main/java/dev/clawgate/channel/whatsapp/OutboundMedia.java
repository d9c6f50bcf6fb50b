package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One media payload of a reply (SPEC OUT-13): a local file uploaded ({@code POST /{phone_number_id}/media}) and sent by
 * its media id, a URL sent as a {@code link} for WhatsApp to fetch. The run's abort reaches the file read and the
 * upload (SPEC OUT-11).
 */
final class OutboundMedia {
    private OutboundMedia() {}

    static void attach(
            ObjectNode body, MediaRef media, String caption, String phoneNumberId, GraphApi api, CancelToken cancel)
            throws DeliveryException {
        String type = switch (media.kind()) {
            case IMAGE -> "image";
            case VIDEO -> "video";
            case AUDIO -> "audio";
            case DOCUMENT -> "document";
        };
        body.put("type", type);
        ObjectNode m = body.putObject(type);
        String fileName = media.remote()
                ? lastSegment(media.location())
                : Path.of(media.location()).getFileName().toString();
        if (media.remote()) {
            m.put("link", media.location());
        } else {
            Path file = Path.of(media.location());
            cancel.throwIfCancelled();
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new DeliveryException(
                        "whatsapp: cannot read " + file.getFileName() + ": "
                                + e.getClass().getSimpleName(),
                        DeliveryException.Kind.PERMANENT,
                        null,
                        e);
            }
            try {
                m.put("id", api.upload(phoneNumberId, fileName, mimeType(fileName, media.kind()), bytes, cancel));
            } catch (GraphApiException e) {
                // an upload whose answer was lost left at most an unused media object: nothing the customer sees
                if (e.reach() == GraphApiException.Reach.UNKNOWN && !cancel.isCancelled()) {
                    throw new DeliveryException(
                            "whatsapp media upload: " + e.getMessage(), DeliveryException.Kind.TRANSIENT, null, e);
                }
                throw e.toDelivery("media upload");
            }
        }
        if (media.kind() == MediaRef.MediaKind.DOCUMENT) m.put("filename", fileName);
        if (!caption.isEmpty()) m.put("caption", caption);
    }

    static String mimeType(String fileName, MediaRef.MediaKind kind) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        String ext = lower.contains(".") ? lower.substring(lower.lastIndexOf('.') + 1) : "";
        return switch (ext) {
            case "jpg", "jpeg" -> "image/jpeg";
            case "png" -> "image/png";
            case "webp" -> "image/webp";
            case "ogg", "opus" -> "audio/ogg";
            case "mp3" -> "audio/mpeg";
            case "m4a" -> "audio/mp4";
            case "aac" -> "audio/aac";
            case "amr" -> "audio/amr";
            case "mp4" -> kind == MediaRef.MediaKind.AUDIO ? "audio/mp4" : "video/mp4";
            case "3gp" -> "video/3gpp";
            case "pdf" -> "application/pdf";
            case "txt", "md", "csv" -> "text/plain";
            case "doc" -> "application/msword";
            case "docx" -> "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
            case "xls" -> "application/vnd.ms-excel";
            case "xlsx" -> "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
            default -> kind == MediaRef.MediaKind.IMAGE ? "image/jpeg" : "application/octet-stream";
        };
    }

    private static String lastSegment(String url) {
        String path = url.replaceAll("[?#].*", "");
        String last = path.substring(path.lastIndexOf('/') + 1);
        return last.isBlank() ? "file" : last;
    }
}

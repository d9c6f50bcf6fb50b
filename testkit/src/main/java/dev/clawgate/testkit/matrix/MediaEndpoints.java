package dev.clawgate.testkit.matrix;

import dev.clawgate.testkit.matrix.Exchange.Answer;
import java.util.Map;

/**
 * The content repository (Client-Server API, "Content repository", Matrix 1.11 authenticated media): {@code POST
 * /_matrix/media/v3/upload} answers {@code {"content_uri":"mxc://server/id"}}; {@code GET
 * /_matrix/client/v1/media/download/{serverName}/{mediaId}[/{fileName}]}, {@code .../thumbnail/...} and
 * {@code .../config} need the access token. The unauthenticated {@code /_matrix/media/v3/download} is frozen: it serves
 * nothing uploaded here (404).
 */
final class MediaEndpoints {
    private final Homeserver hs;

    MediaEndpoints(Homeserver hs) {
        this.hs = hs;
    }

    /**
     * {@code filename} query parameter, {@code Content-Type} header, raw bytes; 413 {@code M_TOO_LARGE} past the limit.
     */
    Answer upload(Exchange x) throws MatrixError {
        String type = x.header("content-type") == null ? "application/octet-stream" : x.header("content-type");
        return hs.locked(() -> {
            if (x.body().length > hs.maxUploadBytes)
                throw new MatrixError(413, "M_TOO_LARGE", "Upload request body is too large");
            String id = hs.newMediaId();
            hs.media.put(id, new Homeserver.Media(id, x.body(), type, x.query("filename")));
            return Answer.json(
                    Homeserver.JSON.createObjectNode().put("content_uri", "mxc://" + hs.serverName + "/" + id));
        });
    }

    Answer config(Exchange x) {
        return hs.locked(() -> Answer.json(Homeserver.JSON.createObjectNode().put("m.upload.size", hs.maxUploadBytes)));
    }

    /** Path: {@code _matrix/client/v1/media/download/{serverName}/{mediaId}[/{fileName}]}. */
    Answer download(Exchange x) throws MatrixError {
        Homeserver.Media m = find(x);
        String name = x.segments().size() > 7 ? x.segment(7) : m.fileName();
        // "Content-Disposition": inline only for types safe to show; attachment otherwise
        boolean inline = m.contentType().startsWith("image/") || m.contentType().startsWith("text/plain");
        String disposition = (inline ? "inline" : "attachment")
                + (name == null ? "" : "; filename=\"" + name.replace("\"", "") + "\"");
        return new Answer(200, m.bytes(), m.contentType(), Map.of("Content-Disposition", disposition));
    }

    /** The fake does not scale images: a thumbnail of an image is the image; other content cannot be thumbnailed. */
    Answer thumbnail(Exchange x) throws MatrixError {
        Homeserver.Media m = find(x);
        if (!m.contentType().startsWith("image/"))
            throw new MatrixError(400, "M_UNKNOWN", "Cannot generate thumbnails for this content");
        return new Answer(200, m.bytes(), m.contentType(), Map.of("Content-Disposition", "inline"));
    }

    private Homeserver.Media find(Exchange x) throws MatrixError {
        if (x.segments().size() < 7) throw MatrixError.unrecognized(404);
        String server = x.segment(5), id = x.segment(6);
        Homeserver.Media m = hs.locked(() -> server.equals(hs.serverName) ? hs.media.get(id) : null);
        if (m == null) throw MatrixError.notFound("Not found: mxc://" + server + "/" + id);
        return m;
    }
}

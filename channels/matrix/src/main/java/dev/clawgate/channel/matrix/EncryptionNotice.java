package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SPEC CH-6: end-to-end encryption is not supported yet. A room where an encrypted message arrives is told so once,
 * with a plain {@code m.notice}; its transaction id follows from the room, so a batch replayed after a crash gets the
 * homeserver's first answer back, not a second notice.
 */
final class EncryptionNotice {
    private static final Logger log = LoggerFactory.getLogger(EncryptionNotice.class);
    static final String TEXT = "This room is end-to-end encrypted, and this bot cannot read encrypted messages yet. "
            + "Write to it in a room without encryption.";

    private final MatrixBot bot;
    private final Set<String> told = ConcurrentHashMap.newKeySet();

    EncryptionNotice(MatrixBot bot) {
        this.bot = bot;
    }

    void tell(String roomId) {
        if (!told.add(roomId)) return;
        ObjectNode content =
                MatrixApi.JSON.createObjectNode().put("msgtype", "m.notice").put("body", TEXT);
        String txn = "cg" + bot.installId() + "-e2ee-" + Integer.toHexString(roomId.hashCode());
        try {
            bot.api.put(
                    "/_matrix/client/v3/rooms/" + MatrixApi.seg(roomId) + "/send/m.room.message/" + MatrixApi.seg(txn),
                    content,
                    CancelToken.none());
        } catch (MatrixApiException e) {
            told.remove(roomId);
            log.warn(
                    "matrix [{}]: the encryption notice to {} was not sent: {}",
                    bot.account.id(),
                    roomId,
                    e.getMessage());
        }
    }
}

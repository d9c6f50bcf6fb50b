package dev.clawgate.core.memory;

import dev.clawgate.core.model.SessionKey;
import java.util.Objects;

/**
 * Whose memory an entry is (SPEC ME-2): one person on one channel ({@link Kind#SENDER}), one conversation
 * ({@link Kind#SESSION}, e.g. a group room), or everyone ({@link Kind#GLOBAL}). {@link #id()} is what the store keeps:
 * each part escaped, so two different scopes never share an id (SPEC HI-1: joined strings collide).
 */
public record MemoryScope(Kind kind, String id) {
    public enum Kind {
        GLOBAL("global"),
        SENDER("sender"),
        SESSION("session");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    private static final MemoryScope GLOBAL = new MemoryScope(Kind.GLOBAL, Kind.GLOBAL.wireName);

    public MemoryScope {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        if (!id.equals(kind.wireName) && !id.startsWith(kind.wireName + "|")) {
            throw new IllegalArgumentException(
                    "a " + kind.wireName + " scope id starts with '" + kind.wireName + "', got " + id);
        }
    }

    /** Memories every conversation may recall. */
    public static MemoryScope global() {
        return GLOBAL;
    }

    /** One person on one channel, in every chat they write in. */
    public static MemoryScope sender(String channel, String sender) {
        return of(Kind.SENDER, Objects.requireNonNull(channel, "channel"), Objects.requireNonNull(sender, "sender"));
    }

    /** One conversation: its whole session tuple. */
    public static MemoryScope session(SessionKey key) {
        return of(
                Kind.SESSION,
                key.channel(),
                key.account(),
                key.chatType().wireName(),
                key.replyTarget(),
                key.threadId(),
                key.sender());
    }

    /** The store's id back as a scope; the kind is its first part. */
    public static MemoryScope parse(String id) {
        Objects.requireNonNull(id, "id");
        for (Kind k : Kind.values()) {
            if (id.equals(k.wireName) || id.startsWith(k.wireName + "|")) return new MemoryScope(k, id);
        }
        throw new IllegalArgumentException("not a memory scope id: " + id);
    }

    private static MemoryScope of(Kind kind, String... parts) {
        StringBuilder sb = new StringBuilder(kind.wireName);
        for (String p : parts) {
            sb.append('|');
            // null and "" must differ: a null part is a lone '~'
            if (p == null) sb.append('~');
            else sb.append('=').append(p.replace("\\", "\\\\").replace("|", "\\|"));
        }
        return new MemoryScope(kind, sb.toString());
    }

    @Override
    public String toString() {
        return id;
    }
}

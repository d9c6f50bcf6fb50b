package dev.clawgate.core.prompt;

import dev.clawgate.core.model.SessionKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The stable part of each session's system prompt (SPEC SP-2): built when a session is first seen (fresh bootstrap
 * files and skills), reused while it lasts, rebuilt after {@link #invalidate}. The date/time and the memory context are
 * fresh on every call. Bounded: the least recently used session is dropped past {@code maxSessions} (SPEC OP-7).
 *
 * <p>A change in what the prompt's wording depends on for correctness (tool set, native or prompt-guided tools, model,
 * provider, channel, reply target, workspace) also rebuilds it: a fallback provider without native tools must get the
 * tool protocol (SPEC SP-3).
 */
public final class SystemPromptCache {
    public static final int DEFAULT_MAX_SESSIONS = 10_000;

    private final SystemPromptBuilder builder;
    private final int maxSessions;
    private final ReentrantLock lock = new ReentrantLock();
    private final LinkedHashMap<SessionKey, Cached> entries;

    private record Cached(PromptShape shape, StablePrompt stable) {}

    public SystemPromptCache(SystemPromptBuilder builder) {
        this(builder, DEFAULT_MAX_SESSIONS);
    }

    public SystemPromptCache(SystemPromptBuilder builder, int maxSessions) {
        if (maxSessions < 1) throw new IllegalArgumentException("maxSessions must be positive");
        this.builder = Objects.requireNonNull(builder, "builder");
        this.maxSessions = maxSessions;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<SessionKey, Cached> eldest) {
                return size() > SystemPromptCache.this.maxSessions;
            }
        };
    }

    /** The prompt for this session's turn: the cached stable part with fresh date/time and memories. */
    public BuiltPrompt prompt(SessionKey session, PromptContext ctx) {
        Objects.requireNonNull(session, "session");
        PromptShape shape = PromptShape.of(ctx);
        Cached entry = cached(session, shape);
        if (entry == null) {
            // built outside the lock: reading bootstrap files must not stall other sessions
            Cached fresh = new Cached(shape, builder.stable(ctx));
            entry = store(session, fresh);
        }
        return builder.complete(entry.stable(), ctx);
    }

    /** Forgets the session's prompt: the next call rebuilds it (a new session, e.g. after {@code /new}). */
    public void invalidate(SessionKey session) {
        lock.lock();
        try {
            entries.remove(session);
        } finally {
            lock.unlock();
        }
    }

    /** Forgets every session's prompt, e.g. after the skills or the bootstrap files were reloaded. */
    public void invalidateAll() {
        lock.lock();
        try {
            entries.clear();
        } finally {
            lock.unlock();
        }
    }

    public int size() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }

    private Cached cached(SessionKey session, PromptShape shape) {
        lock.lock();
        try {
            Cached e = entries.get(session);
            return e != null && e.shape().equals(shape) ? e : null;
        } finally {
            lock.unlock();
        }
    }

    /** Stores {@code fresh} unless a concurrent call already stored one of the same shape, which then wins. */
    private Cached store(SessionKey session, Cached fresh) {
        lock.lock();
        try {
            Cached existing = entries.get(session);
            if (existing != null && existing.shape().equals(fresh.shape())) return existing;
            entries.put(session, fresh);
            return fresh;
        } finally {
            lock.unlock();
        }
    }
}

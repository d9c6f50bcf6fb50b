package dev.clawgate.channel.qq;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each received message allows as passive replies (SPEC CH-13, OUT-7): when it was written, and which
 * {@code msg_seq} each payload answering it took. A payload keeps its seq across attempts and restarts (the seq is
 * written and forced to disk before the first attempt leaves), so a retry after a lost answer repeats the same
 * {@code msg_id + msg_seq}, which the platform refuses to deliver twice. Kept in {@code qq/replies} under the data dir
 * (in memory when there is none), compacted at start to the messages still within the longest window.
 */
final class ReplyLedger {
    private static final Logger log = LoggerFactory.getLogger(ReplyLedger.class);
    /** Messages older than this can no longer be answered passively anywhere (C2C: 60 minutes): forgotten. */
    static final Duration KEPT = Duration.ofMinutes(90);

    private static final int MESSAGES_KEPT = 20_000;

    /** The seq a payload takes; {@code repeated}: it took it before (an earlier attempt may have arrived). */
    record Slot(int seq, boolean repeated) {}

    private static final class Replies {
        Instant receivedAt;
        final Map<String, Integer> seqs = new LinkedHashMap<>();
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Replies> entries = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Replies> eldest) {
            return size() > MESSAGES_KEPT;
        }
    };
    private final java.util.Set<String> active = java.util.Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MESSAGES_KEPT;
        }
    });
    private final Path file;
    private FileChannel out;

    /** @param file where the ledger is kept, or null to keep it in memory only */
    ReplyLedger(Path file, Instant now) {
        this.file = file;
        if (file != null) load(now);
    }

    /** A message was received at {@code at} (the platform's timestamp). */
    void received(String msgId, Instant at) {
        lock.lock();
        try {
            Replies e = entries.computeIfAbsent(msgId, k -> new Replies());
            if (e.receivedAt != null) return;
            e.receivedAt = at;
            append("R\t" + msgId + "\t" + at.toEpochMilli() + "\n");
        } finally {
            lock.unlock();
        }
    }

    /** When {@code msgId} was received, or null when it is not known (received before the ledger was kept). */
    Instant receivedAt(String msgId) {
        lock.lock();
        try {
            Replies e = entries.get(msgId);
            return e == null ? null : e.receivedAt;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The seq of the payload {@code key} answering {@code msgId}: the one it took before, else the next one unless
     * {@code max} were taken (then null: the message has been answered as often as the platform allows).
     */
    Slot claim(String msgId, String key, int max) {
        lock.lock();
        try {
            Replies e = entries.computeIfAbsent(msgId, k -> new Replies());
            Integer had = e.seqs.get(key);
            if (had != null) return new Slot(had, true);
            if (e.seqs.size() >= max) return null;
            int seq = e.seqs.size() + 1;
            e.seqs.put(key, seq);
            append("S\t" + msgId + "\t" + seq + "\t" + key + "\n");
            return new Slot(seq, false);
        } finally {
            lock.unlock();
        }
    }

    /** The seq {@code key} took answering {@code msgId}, or null when it never went out as a passive reply. */
    Integer seqOf(String msgId, String key) {
        lock.lock();
        try {
            Replies e = entries.get(msgId);
            return e == null ? null : e.seqs.get(key);
        } finally {
            lock.unlock();
        }
    }

    /** The payload {@code key} is about to go out as an active message (written before it leaves). */
    void activeAttempt(String key) {
        lock.lock();
        try {
            if (active.add(key)) append("A\t" + key + "\n");
        } finally {
            lock.unlock();
        }
    }

    boolean attemptedActive(String key) {
        lock.lock();
        try {
            return active.contains(key);
        } finally {
            lock.unlock();
        }
    }

    /** Whether what is claimed here outlives the process (a data dir was given and its file is writable). */
    boolean persistent() {
        lock.lock();
        try {
            return out != null;
        } finally {
            lock.unlock();
        }
    }

    private void append(String line) {
        if (out == null) return;
        try {
            ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) out.write(b);
            out.force(false);
        } catch (IOException e) {
            // without it a retry after a restart may take a new seq: the outbox's own record still keeps it once
            log.warn("qq: the reply ledger {} cannot be written: {}", file, e.toString());
        }
    }

    private void load(Instant now) {
        try {
            Files.createDirectories(file.getParent());
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String[] f = line.split("\t", 4);
                    if (f.length >= 3 && f[0].equals("R")) {
                        entries.computeIfAbsent(f[1], k -> new Replies()).receivedAt =
                                Instant.ofEpochMilli(Long.parseLong(f[2]));
                    } else if (f.length == 2 && f[0].equals("A")) {
                        active.add(f[1]);
                    } else if (f.length == 4 && f[0].equals("S")) {
                        entries.computeIfAbsent(f[1], k -> new Replies()).seqs.put(f[3], Integer.parseInt(f[2]));
                    }
                }
            }
            entries.values().removeIf(e -> e.receivedAt != null && e.receivedAt.isBefore(now.minus(KEPT)));
            List<String> lines = new ArrayList<>();
            entries.forEach((id, e) -> {
                if (e.receivedAt != null) lines.add("R\t" + id + "\t" + e.receivedAt.toEpochMilli());
                e.seqs.forEach((k, s) -> lines.add("S\t" + id + "\t" + s + "\t" + k));
            });
            active.forEach(k -> lines.add("A\t" + k));
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(tmp, lines, StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException | RuntimeException e) {
            log.warn("qq: the reply ledger {} cannot be read or written ({}); kept in memory", file, e.toString());
        }
    }

    void close() {
        lock.lock();
        try {
            if (out != null) out.close();
        } catch (IOException e) {
            log.debug("qq: closing the reply ledger: {}", e.toString());
        } finally {
            out = null;
            lock.unlock();
        }
    }
}

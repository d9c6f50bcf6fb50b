package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.slack.SlackWorld.Conversation;
import dev.clawgate.testkit.slack.SlackWorld.Post;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** What people do in the fake workspace: post, reply, share a file, edit, delete; each publishes its events. */
final class SlackPeople {
    private final ReentrantLock lock;
    private final SlackWorld world;
    private final SlackFiles files;
    private final SlackEvents events;
    private final Consumer<List<ObjectNode>> publish;

    SlackPeople(
            ReentrantLock lock,
            SlackWorld world,
            SlackFiles files,
            SlackEvents events,
            Consumer<List<ObjectNode>> publish) {
        this.lock = lock;
        this.world = world;
        this.files = files;
        this.events = events;
        this.publish = publish;
    }

    record FileShare(String name, String mimetype, byte[] bytes) {}

    String say(SlackChannel channel, SlackUser from, String text, String threadTs, FileShare file) {
        List<ObjectNode> out = new ArrayList<>();
        String ts = locked(() -> {
            Conversation c = world.conversations.get(channel.id());
            try {
                Post p = world.add(c, from, text, threadTs);
                if (file != null) p.fileIds.add(files.userFile(from, file.name(), file.mimetype(), file.bytes()).id);
                out.addAll(events.forNewMessage(c, p));
                return p.ts;
            } catch (SlackApiError e) {
                throw new IllegalArgumentException("cannot post there: " + e.code, e);
            }
        });
        publish(out);
        return ts;
    }

    void edit(SlackChannel channel, String ts, String newText) {
        ObjectNode event = locked(() -> {
            Conversation c = world.conversations.get(channel.id());
            Post p = c.posts.get(ts);
            ObjectNode previous = world.messageJson(p, false);
            p.text = newText;
            p.editedTs = world.nextTs();
            p.edits++;
            return c.botMember ? events.changed(c, p, previous) : null;
        });
        if (event != null) publish(List.of(event));
    }

    /** A person deletes their message: a hidden {@code message_deleted} event. */
    void delete(SlackChannel channel, String ts) {
        ObjectNode event = locked(() -> {
            Conversation c = world.conversations.get(channel.id());
            Post p = c.posts.get(ts);
            ObjectNode previous = world.messageJson(p, false);
            p.deleted = true;
            return c.botMember ? events.deleted(c, previous) : null;
        });
        if (event != null) publish(List.of(event));
    }

    private void publish(List<ObjectNode> out) {
        publish.accept(out);
    }

    private <T> T locked(Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}

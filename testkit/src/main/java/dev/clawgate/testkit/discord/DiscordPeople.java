package dev.clawgate.testkit.discord;

import dev.clawgate.testkit.discord.DiscordWorld.Chan;
import dev.clawgate.testkit.discord.DiscordWorld.Msg;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** What people do in the fake Discord: write, reply, attach, edit, delete; each dispatches its Gateway events. */
final class DiscordPeople {
    private final ReentrantLock lock;
    private final DiscordWorld world;
    private final MessageRoutes messages;

    DiscordPeople(ReentrantLock lock, DiscordWorld world, MessageRoutes messages) {
        this.lock = lock;
        this.world = world;
        this.messages = messages;
    }

    String write(
            DiscordChannel channel,
            DiscordUser from,
            String content,
            String replyTo,
            boolean mentionAuthor,
            String filename,
            String contentType,
            byte[] bytes) {
        return locked(() -> {
            Chan c = world.channels.get(channel.id());
            Msg m = world.add(c, from, content, null, replyTo);
            if (mentionAuthor && replyTo != null)
                m.mentions.add(world.messages.get(replyTo).author.id());
            if (filename != null) world.attach(m, filename, contentType, bytes);
            messages.created(m);
            return m.id;
        });
    }

    void edit(String messageId, String content) {
        locked(() -> {
            Msg m = world.messages.get(messageId);
            m.content = content;
            m.edited = java.time.Instant.now();
            m.edits++;
            messages.updated(m);
            return null;
        });
    }

    /** A person deletes their message (MESSAGE_DELETE). */
    void delete(String messageId) {
        locked(() -> {
            Msg m = world.messages.get(messageId);
            m.deleted = true;
            messages.deleted(m);
            return null;
        });
    }

    private <T> T locked(Supplier<T> action) {
        return DiscordHttp.locked(lock, action);
    }
}

package dev.clawgate.testkit.telegram;

/**
 * A chat on the fake: {@code private} (with {@code peer}), {@code group}, or {@code supergroup} ({@code forum} when it
 * has topics).
 */
public record TelegramChat(long id, String type, String title, TelegramUser peer, boolean forum) {
    public boolean isPrivate() {
        return "private".equals(type);
    }
}

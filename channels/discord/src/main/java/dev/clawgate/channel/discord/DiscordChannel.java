package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.socket.SessionFile;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discord (SPEC CH-5): each bot holds a Gateway connection ({@link GatewayClient}) for what people write, and answers
 * through {@link DiscordMessageAdapter} over the HTTP API. Restartable: the {@code ChannelSupervisor} may stop and
 * start it while the gateway runs (SPEC CH-0); the Gateway session is kept, so a start resumes it and what was
 * dispatched meanwhile is replayed.
 */
public final class DiscordChannel implements Channel {
    private static final Logger log = LoggerFactory.getLogger(DiscordChannel.class);
    public static final String NAME = "discord";
    /**
     * At most this many message ids are remembered per bot to drop a replayed message early (the inbox dedupes too,
     * IN-1).
     */
    private static final int REMEMBERED = 5000;

    private final Map<String, DiscordBot> bots = new LinkedHashMap<>();
    private final Map<String, MessageReader> readers = new LinkedHashMap<>();
    private final Map<String, GatewayClient> gateways = new LinkedHashMap<>();
    private final Map<String, Set<String>> seen = new LinkedHashMap<>();
    private final AtomicReference<InboundSink> sink = new AtomicReference<>();
    /** The bots whose Gateway connection runs: every bot after {@link #start}, those started one by one otherwise. */
    private final Set<String> started = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final DiscordMessageAdapter adapter;
    private final AttachmentFetcher fetcher;

    public DiscordChannel(List<DiscordAccount> accounts) {
        this(accounts, null);
    }

    /** A channel that keeps its Gateway sessions and its nonce log under {@code dataDir} (null: in memory). */
    public DiscordChannel(List<DiscordAccount> accounts, java.nio.file.Path dataDir) {
        this(
                accounts,
                task -> Thread.ofVirtual().name("discord-io").start(task),
                DiscordMessageAdapter.MAX_INLINE_RATE_WAIT,
                DiscordAccount.CALL_TIMEOUT,
                GatewayClient.Timing.DISCORD,
                Timers.PREVIEW,
                DiscordAccount.PREVIEW_INTERVAL,
                dataDir);
    }

    /** The gateway's shared preview timer: a daemon thread that only hands work on. */
    private static final class Timers {
        static final Scheduler PREVIEW = Scheduler.daemon("discord-preview-timer");
    }

    /**
     * @param io runs reaction, typing and preview calls off the caller's thread
     * @param maxRateWait the longest wait for a rate-limit bucket inside one call
     * @param callTimeout how long an HTTP API call may wait for its answer; past it the outcome is unknown
     */
    DiscordChannel(
            List<DiscordAccount> accounts,
            Executor io,
            Duration maxRateWait,
            Duration callTimeout,
            GatewayClient.Timing timing,
            Scheduler previewTimer,
            Duration previewInterval) {
        this(accounts, io, maxRateWait, callTimeout, timing, previewTimer, previewInterval, null);
    }

    /** @param dataDir where sessions and the nonce log are kept across restarts, or null to keep them in memory */
    DiscordChannel(
            List<DiscordAccount> accounts,
            Executor io,
            Duration maxRateWait,
            Duration callTimeout,
            GatewayClient.Timing timing,
            Scheduler previewTimer,
            Duration previewInterval,
            java.nio.file.Path dataDir) {
        HttpClient http = DiscordApi.client();
        for (DiscordAccount a : accounts) {
            DiscordBot bot =
                    new DiscordBot(a, new DiscordApi(a.apiBase(), a.botToken(), http, callTimeout, maxRateWait));
            bots.put(a.id(), bot);
            MessageReader reader = new MessageReader(bot);
            readers.put(a.id(), reader);
            seen.put(a.id(), bounded());
            SessionFile kept = dataDir == null
                    ? null
                    : new SessionFile(dataDir.resolve("discord").resolve(a.id() + ".session"), "Discord");
            gateways.put(
                    a.id(), new GatewayClient(bot, (type, d) -> dispatch(bot, reader, type, d), http, timing, kept));
        }
        this.adapter = new DiscordMessageAdapter(bots, io, previewTimer, previewInterval);
        this.fetcher = new AttachmentFetcher(
                http, dataDir == null ? null : dataDir.resolve("media").resolve("discord"));
        if (dataDir != null)
            adapter.nonceLog(new NonceLog(dataDir.resolve("discord").resolve("nonces")));
    }

    private static Set<String> bounded() {
        return Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > REMEMBERED;
            }
        }));
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Learns each bot's user id ({@code GET /users/@me}), then opens its Gateway connection. A token Discord refuses
     * stops the start with the fix (SPEC CH-0); an unreachable API is logged, and the Gateway loop keeps trying.
     */
    @Override
    public void start(InboundSink inboundSink) {
        if (!sink.compareAndSet(null, inboundSink)) throw new IllegalStateException("discord channel already started");
        fetcher.prune();
        for (DiscordBot bot : bots.values()) {
            try {
                startBot(bot);
            } catch (IllegalStateException e) {
                stop();
                throw e;
            }
        }
    }

    /** Each bot is an account whose Gateway connection opens and closes on its own (SPEC OP-2: elected one by one). */
    @Override
    public List<String> accounts() {
        return List.copyOf(bots.keySet());
    }

    /**
     * Opens one bot's Gateway connection as {@link #start} would (resuming its kept session), leaving the others as
     * they are; attachments are pruned with the first.
     */
    @Override
    public synchronized void startAccount(String account, InboundSink inboundSink) {
        DiscordBot bot = bot(account);
        if (sink.compareAndSet(null, inboundSink)) fetcher.prune();
        else if (sink.get() != inboundSink)
            throw new IllegalStateException("discord channel started with another sink");
        if (!started.contains(account)) startBot(bot);
    }

    /** Closes one bot's Gateway connection (its session kept for a resume); the other bots keep theirs. */
    @Override
    public synchronized void stopAccount(String account) {
        bot(account);
        started.remove(account);
        gateways.get(account).stop();
    }

    private DiscordBot bot(String account) {
        DiscordBot bot = bots.get(account);
        if (bot == null) throw new IllegalArgumentException("no discord account " + account);
        return bot;
    }

    private void startBot(DiscordBot bot) {
        try {
            bot.identify();
        } catch (DiscordApiException e) {
            if (e.authRefused()) {
                String fix = "discord [" + bot.account.id()
                        + "]: Discord refuses the bot token (401); set bot_token to the bot's "
                        + "token (Developer Portal, Bot, Reset Token), e.g. bot_token = \"${DISCORD_BOT_TOKEN}\"";
                log.error(fix);
                throw new IllegalStateException(fix);
            }
            log.error(
                    "discord [{}]: cannot reach the HTTP API at {} ({}); the Gateway loop keeps trying",
                    bot.account.id(),
                    bot.account.apiBase(),
                    e.getMessage());
        }
        started.add(bot.account.id());
        gateways.get(bot.account.id()).start();
    }

    /** One dispatch, in order; a message is handed to the inbox, and a store failure is thrown so it is replayed. */
    private void dispatch(DiscordBot bot, MessageReader reader, String type, JsonNode d) {
        switch (type) {
            case "GUILD_CREATE" -> reader.guildCreated(d);
            case "THREAD_CREATE" -> reader.threadCreated(d);
            case "MESSAGE_CREATE" -> message(bot, reader, d);
            default -> {}
        }
    }

    private void message(DiscordBot bot, MessageReader reader, JsonNode d) {
        InboundSink to = sink.get();
        if (to == null || !started.contains(bot.account.id()))
            throw new IllegalStateException("the channel is stopping");
        String id = d.path("id").asText("");
        Set<String> known = seen.get(bot.account.id());
        if (known.contains(id)) return;
        switch (reader.read(d)) {
            case MessageReader.Reading.Ignored ignored -> {}
            case MessageReader.Reading.Unreadable u ->
                to.unreadable(
                        UnreadableInbound.of(MessageReader.CHANNEL, bot.account.id(), id, u.reason(), d.toString()));
            case MessageReader.Reading.Message m -> {
                InboundMessage in = m.message();
                List<Attachment> images = fetcher.fetch(bot.account.id(), d.path("attachments"));
                if (!images.isEmpty()) {
                    in = new InboundMessage(
                            in.id(),
                            in.channel(),
                            in.account(),
                            in.sender(),
                            in.senderName(),
                            in.replyTarget(),
                            in.threadId(),
                            in.scopeId(),
                            in.chatType(),
                            in.mentioned(),
                            in.timestamp(),
                            in.text(),
                            images,
                            in.rawPayload());
                }
                try {
                    to.accept(in);
                } catch (StoreException | IllegalStateException retry) {
                    throw retry;
                } catch (RuntimeException refused) {
                    to.unreadable(UnreadableInbound.of(
                            MessageReader.CHANNEL,
                            bot.account.id(),
                            id,
                            "the gateway could not take it: " + refused,
                            d.toString()));
                }
            }
        }
        known.add(id);
    }

    @Override
    public void stop() {
        sink.set(null);
        started.clear();
        gateways.values().forEach(GatewayClient::stop);
    }

    /** Each bot's Gateway: up once READY or RESUMED; a fatal close says its fix (SPEC CH-0: shown in /readyz). */
    @Override
    public ChannelHealth health() {
        if (sink.get() == null) return ChannelHealth.down("not started");
        List<String> problems = new ArrayList<>();
        gateways.forEach((id, g) -> {
            if (started.contains(id) && !g.health().healthy())
                problems.add((bots.size() == 1 ? "" : id + ": ") + g.health().detail());
        });
        return problems.isEmpty() ? ChannelHealth.UP : ChannelHealth.down(String.join("; ", problems));
    }

    /** One bot's Gateway connection; "not started" while it does not run. */
    @Override
    public ChannelHealth health(String account) {
        if (sink.get() == null || !started.contains(account)) return ChannelHealth.down("not started");
        return gateways.get(account).health();
    }

    /** SPEC SP-1: what Discord renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "Discord renders Markdown: **bold**, *italic*, __underline__, ~~strike~~, `code`, ```code blocks```, "
                + "> quotes, - lists and # headings. No tables: use lists or code blocks. Messages hold 2000 "
                + "characters; longer replies are split into several messages.";
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /**
     * SPEC IN-3: the Gateway has no acks, but its sequence number is the receive position: it advances only past a
     * message committed to the inbox, and a Resume replays from there.
     */
    @Override
    public Set<AckPolicy> ackPolicies() {
        return Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** Gateway connections opened so far, over all bots (for tests). */
    int connectionsOpened() {
        return gateways.values().stream().mapToInt(GatewayClient::connections).sum();
    }
}

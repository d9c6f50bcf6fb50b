package dev.clawgate.channel.telegram;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.run.Scheduler;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Telegram Bot API channel (SPEC CH-3): one or more bots, each receiving by long polling or by webhook, sharing one
 * {@link TelegramMessageAdapter}. Receive ack policy (IN-3): the webhook's 200 follows the inbox commit
 * ({@code after_receive_record}); a polling bot's {@code getUpdates} offset follows it too by default, or, with
 * {@code ack_policy = "after_durable_send"}, the turn's final reply.
 */
public final class TelegramChannel implements Channel {
    private static final Logger log = LoggerFactory.getLogger(TelegramChannel.class);
    public static final String NAME = "telegram";

    private final Map<String, Bot> bots = new LinkedHashMap<>();
    private final Map<String, PollingLoop> loops = new java.util.concurrent.ConcurrentHashMap<>();
    /** The bots whose listener runs: every bot after {@link #start}, those started one by one otherwise. */
    private final Set<String> started = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Map<String, TelegramWebhookReceiver> receivers = new LinkedHashMap<>();
    private final Map<String, UpdateReader> readers = new LinkedHashMap<>();
    private final AtomicReference<InboundSink> sink = new AtomicReference<>();
    private final Map<String, ChannelHealth> webhookHealth = new java.util.concurrent.ConcurrentHashMap<>();
    private final TelegramMessageAdapter adapter;
    private final List<MediaStore> mediaStores = new ArrayList<>();
    private final Scheduler timer;
    private final Executor io;
    /** The next media prune, while started. */
    private final AtomicReference<Scheduler.Cancellable> nextPrune = new AtomicReference<>();
    /** SPEC OP-7: downloaded media are pruned at start and this often. */
    static final Duration PRUNE_EVERY = Duration.ofHours(1);

    public TelegramChannel(List<TelegramAccount> accounts, Path dataDir) {
        this(accounts, dataDir, BotApi.CALL_TIMEOUT, TelegramMessageAdapter.MAX_INLINE_FLOOD_WAIT);
    }

    TelegramChannel(List<TelegramAccount> accounts, Path dataDir, Duration callTimeout, Duration maxInlineFloodWait) {
        this(accounts, dataDir, callTimeout, maxInlineFloodWait, Timers.PREVIEW, Timers.IO);
    }

    /**
     * @param timer times live preview edits and media pruning (tests pass a manual one)
     * @param io runs preview, reaction and pruning work
     */
    TelegramChannel(
            List<TelegramAccount> accounts,
            Path dataDir,
            Duration callTimeout,
            Duration maxInlineFloodWait,
            Scheduler timer,
            Executor io) {
        HttpClient http = BotApi.client();
        for (TelegramAccount a : accounts) {
            Bot bot = new Bot(a, new BotApi(a.apiBase(), a.botToken(), http, callTimeout));
            bots.put(a.id(), bot);
            MediaStore media = new MediaStore(
                    "telegram",
                    dataDir.resolve("telegram").resolve(a.id()).resolve("media"),
                    a.mediaMaxAge(),
                    a.mediaMaxBytes(),
                    Clock.systemUTC());
            mediaStores.add(media);
            UpdateReader reader = new UpdateReader(bot, new MediaFetcher(bot.api, media));
            readers.put(a.id(), reader);
            if (a.mode() == TelegramAccount.Mode.WEBHOOK)
                receivers.put(
                        a.id(),
                        new TelegramWebhookReceiver(bot, reader, () -> started.contains(a.id()) ? sink.get() : null));
        }
        this.timer = timer;
        this.io = io;
        this.adapter = new TelegramMessageAdapter(bots, maxInlineFloodWait, timer, io);
    }

    /** The gateway's shared preview timer (a daemon thread that only hands work on) and the platform calls' threads. */
    private static final class Timers {
        static final Scheduler PREVIEW = Scheduler.daemon("telegram-preview-timer");
        static final Executor IO = new dev.clawgate.core.run.BackgroundWork("telegram-io", 64, 10_000);
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Learns each bot's identity, then starts polling or registers the webhook. A token Telegram rejects stops the
     * start with the fix in the message; an unreachable API is logged as an error and retried in the background while
     * the channel reports unhealthy (SPEC CH-0).
     */
    @Override
    public void start(InboundSink inboundSink) {
        if (!sink.compareAndSet(null, inboundSink)) throw new IllegalStateException("telegram channel already started");
        io.execute(this::pruneMedia);
        for (Bot bot : bots.values()) startBot(bot, inboundSink);
    }

    /** Each bot is an account whose listener starts and stops on its own (SPEC OP-2: elected one by one). */
    @Override
    public List<String> accounts() {
        return List.copyOf(bots.keySet());
    }

    /** A polling bot pulls; a webhook bot runs on every node. */
    @Override
    public boolean pulls(String account) {
        return bot(account).account.mode() == TelegramAccount.Mode.POLLING;
    }

    /**
     * Starts one bot as {@link #start} would, leaving the others as they are; the media pruning starts with the first.
     */
    @Override
    public synchronized void startAccount(String account, InboundSink inboundSink) {
        Bot bot = bot(account);
        if (sink.compareAndSet(null, inboundSink)) io.execute(this::pruneMedia);
        else if (sink.get() != inboundSink)
            throw new IllegalStateException("telegram channel started with another sink");
        if (started.contains(account)) return;
        startBot(bot, inboundSink);
    }

    /**
     * Stops one bot's polling (waiting until its loop ended, so a poller elsewhere never meets it) or refuses its
     * webhook from now on; the other bots keep running.
     */
    @Override
    public synchronized void stopAccount(String account) {
        bot(account);
        started.remove(account);
        webhookHealth.remove(account);
        PollingLoop loop = loops.remove(account);
        if (loop != null) loop.stop();
    }

    private Bot bot(String account) {
        Bot bot = bots.get(account);
        if (bot == null) throw new IllegalArgumentException("no telegram account " + account);
        return bot;
    }

    private void startBot(Bot bot, InboundSink inboundSink) {
        try {
            bot.identify();
            log.info(
                    "telegram [{}]: connected as @{} ({} mode)",
                    bot.account.id(),
                    bot.username(),
                    bot.account.mode().name().toLowerCase());
        } catch (BotApiException e) {
            if (e.code() == 401 || e.code() == 404) {
                String fix = "telegram [" + bot.account.id() + "]: Telegram rejects the bot token (" + e.code()
                        + "); set bot_token to the "
                        + "token @BotFather gave (e.g. bot_token = \"${TELEGRAM_BOT_TOKEN}\")";
                log.error(fix);
                throw new IllegalStateException(fix);
            }
            log.error(
                    "telegram [{}]: cannot reach the Bot API at {} ({}); check api_base and the network. Retrying "
                            + "in the background",
                    bot.account.id(),
                    bot.account.apiBase(),
                    e.getMessage());
        }
        started.add(bot.account.id());
        if (bot.account.mode() == TelegramAccount.Mode.POLLING) {
            PollingLoop loop =
                    new PollingLoop(bot, readers.get(bot.account.id()), inboundSink, bot.account.ackPolicy());
            loops.put(bot.account.id(), loop);
            loop.start();
        } else {
            Thread.ofVirtual().name("telegram-webhook-" + bot.account.id()).start(() -> registerWebhook(bot));
        }
    }

    /** {@code setWebhook} with the secret; retried with backoff until it works or the channel stops. */
    private void registerWebhook(Bot bot) {
        Duration backoff = PollingLoop.FIRST_BACKOFF;
        webhookHealth.put(bot.account.id(), ChannelHealth.down("registering the webhook"));
        while (sink.get() != null && started.contains(bot.account.id())) {
            try {
                if (!bot.identified()) bot.identify();
                var p = BotApi.JSON
                        .createObjectNode()
                        .put("url", bot.account.webhookUrl())
                        .put("secret_token", bot.account.webhookSecret());
                p.putArray("allowed_updates").add("message");
                bot.api.call("setWebhook", p);
                webhookHealth.put(bot.account.id(), ChannelHealth.UP);
                return;
            } catch (BotApiException e) {
                String why = bot.api.redact(e.getMessage());
                webhookHealth.put(bot.account.id(), ChannelHealth.down("setWebhook failed: " + why));
                log.error(
                        "telegram [{}]: setWebhook failed, retrying in {} ms: {}",
                        bot.account.id(),
                        backoff.toMillis(),
                        why);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException stopped) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(PollingLoop.MAX_BACKOFF) > 0
                        ? PollingLoop.MAX_BACKOFF
                        : backoff.multipliedBy(2);
            }
        }
    }

    @Override
    public List<WebhookRoute> webhookRoutes() {
        List<WebhookRoute> routes = new ArrayList<>();
        receivers.forEach((id, r) ->
                routes.add(new WebhookRoute("POST", bots.get(id).account.webhookPath(), r, r::oversized)));
        return routes;
    }

    @Override
    public void stop() {
        sink.set(null);
        started.clear();
        loops.values().forEach(PollingLoop::stop);
        loops.clear();
        Scheduler.Cancellable prune = nextPrune.getAndSet(null);
        if (prune != null) prune.cancel();
    }

    /**
     * SPEC OP-7: removes downloaded media past their age and size limits, then schedules the next prune while the
     * channel runs.
     */
    private void pruneMedia() {
        if (sink.get() == null) return;
        for (MediaStore m : mediaStores) m.prune();
        nextPrune.set(timer.schedule(PRUNE_EVERY, () -> io.execute(this::pruneMedia)));
    }

    @Override
    public ChannelHealth health() {
        if (sink.get() == null) return ChannelHealth.down("not started");
        List<String> problems = new ArrayList<>();
        for (String id : bots.keySet()) {
            ChannelHealth h = started.contains(id) ? health(id) : ChannelHealth.UP;
            if (!h.healthy()) problems.add(id + ": " + h.detail());
        }
        return problems.isEmpty() ? ChannelHealth.UP : ChannelHealth.down(String.join("; ", problems));
    }

    /** One bot's polling loop or webhook registration; "not started" while it does not run. */
    @Override
    public ChannelHealth health(String account) {
        if (sink.get() == null || !started.contains(account)) return ChannelHealth.down("not started");
        PollingLoop loop = loops.get(account);
        if (loop != null) return loop.health();
        return webhookHealth.getOrDefault(account, ChannelHealth.UP);
    }

    /** SPEC SP-1: what this channel renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "Telegram renders Markdown: **bold**, _italic_, `code`, ```code blocks``` and [links](url)."
                + " No tables or headings. Long replies are split into several messages, so keep them short. "
                + dev.clawgate.core.prompt.ChannelGuidance.MEDIA_MARKERS;
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** What this channel can really defer (SPEC IN-3): a polling bot's offset can also wait for the final reply. */
    @Override
    public Set<AckPolicy> ackPolicies() {
        boolean polls = bots.values().stream().anyMatch(b -> b.account.mode() == TelegramAccount.Mode.POLLING);
        return polls
                ? Set.of(AckPolicy.AFTER_RECEIVE_RECORD, AckPolicy.AFTER_DURABLE_SEND)
                : Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** Webhook requests refused for a missing or wrong secret, over all bots (SPEC IN-5: counted). */
    @Override
    public long rejectedRequests() {
        return receivers.values().stream()
                .mapToLong(TelegramWebhookReceiver::rejected)
                .sum();
    }
}

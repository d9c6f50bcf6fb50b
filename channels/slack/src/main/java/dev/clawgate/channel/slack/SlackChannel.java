package dev.clawgate.channel.slack;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.channel.WebhookRoute;
import java.net.http.HttpClient;
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
 * Slack (SPEC CH-4): each app takes events over the Events API ({@code mode = "events"}, a signed webhook the server
 * mounts at {@code webhook_path}) or Socket Mode ({@code mode = "socket"}), and answers through
 * {@link SlackMessageAdapter}. Restartable: the {@code ChannelSupervisor} may stop and start it while the gateway runs
 * (SPEC CH-0).
 */
public final class SlackChannel implements Channel {
    private static final Logger log = LoggerFactory.getLogger(SlackChannel.class);
    public static final String NAME = "slack";

    private final Map<String, SlackBot> bots = new LinkedHashMap<>();
    private final Map<String, SlackApi> appApis = new LinkedHashMap<>();
    private final Map<String, EventReader> readers = new LinkedHashMap<>();
    private final Map<String, EventsReceiver> receivers = new LinkedHashMap<>();
    private final Map<String, SocketModeLoop> loops = new java.util.concurrent.ConcurrentHashMap<>();
    /** The apps whose listener runs: every app after {@link #start}, those started one by one otherwise. */
    private final Set<String> started = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final AtomicReference<InboundSink> sink = new AtomicReference<>();
    private final SlackMessageAdapter adapter;
    private final HttpClient http;
    private final Duration firstBackoff;
    private final Executor io;
    /** SPEC OP-7: downloaded files, pruned by age and size at each start. */
    private final List<MediaStore> mediaStores = new ArrayList<>();

    /** @param dataDir the gateway's data dir: downloaded files go to {@code <data_dir>/slack/<account>/media} */
    public SlackChannel(List<SlackAccount> accounts, java.nio.file.Path dataDir) {
        this(
                accounts,
                dataDir,
                Clock.systemUTC(),
                task -> Thread.ofVirtual().name("slack-io").start(task),
                SlackMessageAdapter.MAX_INLINE_RATE_WAIT,
                SocketModeLoop.FIRST_BACKOFF,
                Timers.PREVIEW,
                SlackAccount.PREVIEW_INTERVAL);
    }

    /** The gateway's shared preview timer: a daemon thread that only hands work on. */
    private static final class Timers {
        static final dev.clawgate.core.run.Scheduler PREVIEW =
                dev.clawgate.core.run.Scheduler.daemon("slack-preview-timer");
    }

    /**
     * @param clock checks the Events API timestamps and times rate limits
     * @param io runs reaction calls off the caller's thread
     * @param firstBackoff the first wait before a Socket Mode reconnect
     */
    SlackChannel(
            List<SlackAccount> accounts,
            java.nio.file.Path dataDir,
            Clock clock,
            Executor io,
            Duration maxInlineRateWait,
            Duration firstBackoff,
            dev.clawgate.core.run.Scheduler previewTimer,
            Duration previewInterval) {
        this.http = SlackApi.client();
        this.firstBackoff = firstBackoff;
        this.io = io;
        for (SlackAccount a : accounts) {
            SlackBot bot = new SlackBot(a, new SlackApi(a.apiBase(), a.botToken(), http, a.callTimeout(), clock));
            bots.put(a.id(), bot);
            java.nio.file.Path mediaDir =
                    dataDir.resolve("slack").resolve(a.id()).resolve("media");
            MediaStore media =
                    new MediaStore("slack", mediaDir, MediaStore.DEFAULT_MAX_AGE, MediaStore.DEFAULT_MAX_BYTES, clock);
            mediaStores.add(media);
            EventReader reader = new EventReader(bot, new FileFetcher(bot, media));
            readers.put(a.id(), reader);
            if (a.mode() == SlackAccount.Mode.EVENTS)
                receivers.put(
                        a.id(),
                        new EventsReceiver(bot, reader, () -> started.contains(a.id()) ? sink.get() : null, clock));
            else appApis.put(a.id(), new SlackApi(a.apiBase(), a.appToken(), http, a.callTimeout(), clock));
        }
        this.adapter = new SlackMessageAdapter(bots, io, maxInlineRateWait, previewTimer, previewInterval);
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Learns each bot's user id ({@code auth.test}), then opens Socket Mode connections. A token Slack refuses stops
     * the start with the fix in the message; an unreachable API is logged and retried in the background (the Events API
     * answers 503 until the bot is known, so Slack retries).
     */
    @Override
    public void start(InboundSink inboundSink) {
        if (!sink.compareAndSet(null, inboundSink)) throw new IllegalStateException("slack channel already started");
        io.execute(() -> mediaStores.forEach(MediaStore::prune));
        for (SlackBot bot : bots.values()) startBot(bot, inboundSink);
    }

    /** Each app is an account whose listener starts and stops on its own (SPEC OP-2: elected one by one). */
    @Override
    public List<String> accounts() {
        return List.copyOf(bots.keySet());
    }

    /** A Socket Mode app pulls; an Events API app runs on every node. */
    @Override
    public boolean pulls(String account) {
        return bot(account).account.mode() == SlackAccount.Mode.SOCKET;
    }

    /** Starts one app as {@link #start} would, leaving the others as they are; files are pruned with the first. */
    @Override
    public synchronized void startAccount(String account, InboundSink inboundSink) {
        SlackBot bot = bot(account);
        if (sink.compareAndSet(null, inboundSink)) io.execute(() -> mediaStores.forEach(MediaStore::prune));
        else if (sink.get() != inboundSink) throw new IllegalStateException("slack channel started with another sink");
        if (!started.contains(account)) startBot(bot, inboundSink);
    }

    /** Closes one app's Socket Mode connection, or refuses its Events API requests from now on; the others run on. */
    @Override
    public synchronized void stopAccount(String account) {
        bot(account);
        started.remove(account);
        SocketModeLoop loop = loops.remove(account);
        if (loop != null) loop.stop();
    }

    private SlackBot bot(String account) {
        SlackBot bot = bots.get(account);
        if (bot == null) throw new IllegalArgumentException("no slack account " + account);
        return bot;
    }

    private void startBot(SlackBot bot, InboundSink inboundSink) {
        // before identifyLater's thread can look
        started.add(bot.account.id());
        try {
            bot.identify();
            log.info(
                    "slack [{}]: connected as {} ({}) ({} mode)",
                    bot.account.id(),
                    bot.name(),
                    bot.userId(),
                    bot.account.mode().name().toLowerCase(java.util.Locale.ROOT));
        } catch (SlackApiException e) {
            if (e.authRefused()) {
                started.remove(bot.account.id());
                if (started.isEmpty()) sink.set(null);
                String fix = "slack [" + bot.account.id() + "]: Slack refuses the bot token (" + e.error()
                        + "); set bot_token to the app's "
                        + "Bot User OAuth Token (e.g. bot_token = \"${SLACK_BOT_TOKEN}\")";
                log.error(fix);
                throw new IllegalStateException(fix);
            }
            log.error(
                    "slack [{}]: cannot reach the Web API at {} ({}); retrying in the background",
                    bot.account.id(),
                    bot.account.apiBase(),
                    e.getMessage());
            if (bot.account.mode() == SlackAccount.Mode.EVENTS)
                Thread.ofVirtual().name("slack-identify").start(() -> identifyLater(bot));
        }
        if (bot.account.mode() == SlackAccount.Mode.SOCKET) {
            SocketModeLoop loop = new SocketModeLoop(
                    bot, appApis.get(bot.account.id()), readers.get(bot.account.id()), inboundSink, http, firstBackoff);
            loops.put(bot.account.id(), loop);
            loop.start();
        }
    }

    private void identifyLater(SlackBot bot) {
        Duration backoff = SocketModeLoop.FIRST_BACKOFF;
        while (sink.get() != null && started.contains(bot.account.id()) && !bot.identified()) {
            try {
                Thread.sleep(backoff);
                bot.identify();
            } catch (InterruptedException e) {
                return;
            } catch (SlackApiException e) {
                backoff = backoff.multipliedBy(2).compareTo(SocketModeLoop.MAX_BACKOFF) > 0
                        ? SocketModeLoop.MAX_BACKOFF
                        : backoff.multipliedBy(2);
            }
        }
    }

    @Override
    public List<WebhookRoute> webhookRoutes() {
        List<WebhookRoute> routes = new ArrayList<>();
        receivers.forEach((id, r) ->
                routes.add(new WebhookRoute("POST", bots.get(id).account.webhookPath(), r)));
        return routes;
    }

    @Override
    public void stop() {
        sink.set(null);
        started.clear();
        loops.values().forEach(SocketModeLoop::stop);
        loops.clear();
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

    /**
     * One app: known to Slack ({@code auth.test}) and, in Socket Mode, connected; "not started" while it does not run.
     */
    @Override
    public ChannelHealth health(String account) {
        if (sink.get() == null || !started.contains(account)) return ChannelHealth.down("not started");
        if (!bot(account).identified()) return ChannelHealth.down("auth.test has not answered yet");
        SocketModeLoop loop = loops.get(account);
        return loop == null ? ChannelHealth.UP : loop.health();
    }

    /** SPEC SP-1: what Slack renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "Slack renders its own mrkdwn; write Markdown: **bold**, _italic_, ~~strike~~, `code`, ```code "
                + "blocks```, [links](url)"
                + " and - lists are converted. No tables, no nested lists; headings become bold lines. Replies longer "
                + "than 4000"
                + " characters are split into several messages.";
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /**
     * SPEC IN-3: an event is acknowledged (HTTP 200, or the envelope ack) once it is recorded; Slack's 3 s allow no
     * later ack.
     */
    @Override
    public Set<AckPolicy> ackPolicies() {
        return Set.of(AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** Events API requests refused for a bad signature or a stale timestamp, over all apps (SPEC IN-5: counted). */
    @Override
    public long rejectedRequests() {
        return receivers.values().stream().mapToLong(EventsReceiver::rejected).sum();
    }
}

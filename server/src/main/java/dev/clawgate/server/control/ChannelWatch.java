package dev.clawgate.server.control;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.model.InboundMessage;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each channel's and account's health as the Control UI shows it (SPEC CH-0): the supervisor's health now, and the last
 * error it ever reported with its time, so an error that healed between two looks is still shown. Samples once a second
 * on one virtual thread; a look samples too.
 */
public final class ChannelWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChannelWatch.class);

    /** The last time a channel or one account of it was seen unhealthy, and why. */
    public record LastError(String detail, Instant at) {}

    /** One account of a channel: its id, health now and its last error (null when it never had one). */
    public record AccountView(String id, boolean healthy, String detail, LastError lastError) {}

    /** One channel as the page lists it. */
    public record ChannelView(
            String name,
            boolean running,
            boolean healthy,
            String detail,
            LastError lastError,
            List<AccountView> accounts) {}

    private final ChannelSupervisor supervisor;
    private final Supplier<ClawgateConfig> config;
    private final Clock clock;
    private final Map<String, LastError> lastErrors = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;

    public ChannelWatch(ChannelSupervisor supervisor, Supplier<ClawgateConfig> config, Clock clock) {
        this.supervisor = supervisor;
        this.config = config;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("control-channel-watch").factory());
        timer.scheduleWithFixedDelay(this::sampleQuietly, 0, 1, TimeUnit.SECONDS);
    }

    /** Every channel in start order, sampled now. */
    public List<ChannelView> channels() {
        List<ChannelView> out = new ArrayList<>();
        for (Channel ch : supervisor.channels()) out.add(view(ch.name(), supervisor.health(ch.name())));
        return out;
    }

    private void sampleQuietly() {
        try {
            for (Channel ch : supervisor.channels()) view(ch.name(), supervisor.health(ch.name()));
        } catch (RuntimeException e) {
            // a channel's health() must not stop the watch; the next second samples again
            log.debug("channel health sample failed: {}", e.toString());
        }
    }

    private ChannelView view(String name, ChannelHealth health) {
        Instant now = clock.instant();
        if (!health.healthy() && isError(health.detail())) lastErrors.put(name, new LastError(health.detail(), now));
        List<AccountView> accounts = new ArrayList<>();
        Set<String> ids = accounts(name);
        for (String account : ids) {
            String problem = health.healthy() ? null : accountProblem(health.detail(), account, ids);
            String key = name + "\u0000" + account;
            if (problem != null && isError(problem)) lastErrors.put(key, new LastError(problem, now));
            accounts.add(
                    new AccountView(account, problem == null, problem == null ? "ok" : problem, lastErrors.get(key)));
        }
        return new ChannelView(
                name, supervisor.running(name), health.healthy(), health.detail(), lastErrors.get(name), accounts);
    }

    /** The accounts the config names for the channel; {@code default} when it names none. */
    private Set<String> accounts(String channel) {
        Set<String> ids = new LinkedHashSet<>();
        ChannelSettings s = config.get().channels().get(channel);
        if (s != null) {
            ids.addAll(s.accountOptions().keySet());
            ids.addAll(s.accounts().keySet());
        }
        if (ids.isEmpty()) ids.add(InboundMessage.DEFAULT_ACCOUNT);
        return ids;
    }

    /**
     * The part of a channel's detail about one account: channels with several accounts join them as {@code id: why}
     * with {@code "; "}; a detail naming none of {@code accounts} is about all of them.
     */
    static String accountProblem(String detail, String account, Set<String> accounts) {
        boolean namesAny = false;
        for (String part : detail.split("; ")) {
            int colon = part.indexOf(": ");
            if (colon <= 0 || !accounts.contains(part.substring(0, colon))) continue;
            namesAny = true;
            if (part.substring(0, colon).equals(account)) return part.substring(colon + 2);
        }
        return namesAny ? null : detail;
    }

    /** A listener on its way up is not an error: only a detail with some other part is kept as the last error. */
    static boolean isError(String detail) {
        for (String part : detail.split("; ")) {
            String why = part.substring(part.indexOf(": ") < 0 ? 0 : part.indexOf(": ") + 2);
            if (!TRANSITIONS.contains(why)) return true;
        }
        return false;
    }

    private static final Set<String> TRANSITIONS = Set.of("starting", "not started", "registering the webhook");

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

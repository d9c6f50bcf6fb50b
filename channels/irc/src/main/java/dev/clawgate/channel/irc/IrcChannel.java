package dev.clawgate.channel.irc;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import java.time.Duration;

/**
 * The IRC channel (SPEC CH-7): one client connection to one server, queries as direct messages and the configured
 * channels as groups. {@link #start} returns at once; the connection is made, and remade after every loss, on its own
 * thread (SPEC CH-0), while {@link #health} says whether it is registered. Restartable: the supervisor may stop and
 * start it.
 */
public final class IrcChannel implements Channel {
    public static final String NAME = "irc";
    /** RFC 1459 8.10: a burst of 5 lines, then one line per 2 s, which no server calls a flood. */
    static final int BURST = 5;

    static final Duration LINE_INTERVAL = Duration.ofSeconds(2);

    private final IrcSettings settings;
    private final TokenBucket bucket;
    private volatile IrcClient client;
    private final IrcMessageAdapter adapter;

    IrcChannel(IrcSettings settings) {
        this(settings, new TokenBucket(BURST, LINE_INTERVAL));
    }

    IrcChannel(IrcSettings settings, TokenBucket bucket) {
        this.settings = settings;
        this.bucket = bucket;
        this.client = new IrcClient(settings, NAME, bucket);
        // the adapter sends through whichever client runs now: a restart makes a new one
        this.adapter = new IrcMessageAdapter(() -> client, settings.textLimit());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink sink) {
        IrcClient fresh = new IrcClient(settings, NAME, bucket);
        fresh.start(sink);
        client = fresh;
    }

    @Override
    public void stop() {
        client.stop();
    }

    @Override
    public ChannelHealth health() {
        return client.health();
    }

    /** Connections opened so far by the running client. */
    int connections() {
        return client.connections();
    }

    IrcClient client() {
        return client;
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** SPEC SP-1: what IRC shows, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "IRC shows plain text only: no Markdown, bold, tables or headings (they are flattened to plain text), "
                + "no images or files. "
                + "Every line is a separate message and long lines are cut, so answer in a few short lines; code is "
                + "sent line by line.";
    }
}

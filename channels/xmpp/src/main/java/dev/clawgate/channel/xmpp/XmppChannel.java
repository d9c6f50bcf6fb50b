package dev.clawgate.channel.xmpp;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;

/**
 * The XMPP channel (SPEC CH-8): one account, its one-to-one chats as direct messages and the configured MUC rooms as
 * groups. {@link #start} returns at once; the connection is made, and made again after every loss, on its own thread
 * (SPEC CH-0), while {@link #health} says whether it is logged in. Restartable: the supervisor may stop and start it (a
 * new connection each start).
 */
public final class XmppChannel implements Channel {
    public static final String NAME = "xmpp";

    private final XmppSettings settings;
    private volatile XmppClient client;
    private final XmppMessageAdapter adapter;

    XmppChannel(XmppSettings settings) {
        this.settings = settings;
        this.client = new XmppClient(settings, NAME);
        // the adapter sends through whichever client runs now: a restart makes a new one
        this.adapter = new XmppMessageAdapter(() -> client, settings.textLimit());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink sink) {
        XmppClient fresh = new XmppClient(settings, NAME);
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

    XmppClient client() {
        return client;
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** SPEC SP-1: what XMPP shows, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "XMPP shows plain text: no tables, headings or images. Many clients style *bold*, _italic_, `code` and "
                + "``` blocks "
                + "(XEP-0393); keep replies short and conversational. In rooms, everyone sees the reply.";
    }
}

package dev.clawgate.core.cron;

import dev.clawgate.core.store.InboxRecord;
import java.util.Optional;

/**
 * Where the scheduler hands a due fire (SPEC AG-5): the claim and the inbox record commit in one transaction (SPEC
 * IN-4, OUT-12), and only then does the record go to the dispatcher, as a channel's message does. A crash therefore
 * either leaves the fire due or leaves it recorded.
 */
@FunctionalInterface
public interface FireSink {
    /** The new inbox record, already on its way to the dispatcher; empty when another claimer had the fire. */
    Optional<InboxRecord> accept(CronFire fire);
}

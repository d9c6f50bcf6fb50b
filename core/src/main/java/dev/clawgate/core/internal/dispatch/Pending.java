package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.store.InboxRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Records waiting in a session lane for one run: one message, or several merged (interrupt, collect). */
final class Pending {
    final ScopeKey scope;
    final String thread;
    final boolean collect;
    final List<InboxRecord> records = new ArrayList<>();

    Pending(ScopeKey scope, String thread, boolean collect, List<InboxRecord> records) {
        this.scope = scope;
        this.thread = thread;
        this.collect = collect;
        this.records.addAll(records);
    }

    static Pending of(InboxRecord r, boolean collect) {
        return new Pending(ScopeKey.of(r.message()), r.message().threadId(), collect, List.of(r));
    }

    boolean sameThread(InboxRecord r) {
        return Objects.equals(thread, r.message().threadId());
    }
}

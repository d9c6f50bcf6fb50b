package dev.clawgate.core.internal.outbound;

import java.util.Locale;

/**
 * Why a delivery showed nothing, on purpose (SPEC OUT-5). The wire names are stable: operators and tests key on them.
 * {@link #RUN_CANCELLED} is OUT-11's: the run was stopped or interrupted before anything of the delivery reached the
 * platform.
 */
public enum SuppressionReason {
    CANCELLED_BY_MESSAGE_SENDING_HOOK,
    EMPTY_AFTER_MESSAGE_SENDING_HOOK,
    NO_VISIBLE_PAYLOAD,
    ADAPTER_RETURNED_NO_IDENTITY,
    RUN_CANCELLED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package dev.clawgate.core.failpoint;

/**
 * Named points where a crash test may halt the JVM (ARCHITECTURE: Tests).
 * {@code -Dclawgate.failpoint=inbox.after_record:3} halts at the third pass through that point with
 * {@code Runtime.halt(137)}, as {@code kill -9} would: no shutdown hooks, no finally blocks. Unset, a hit is one read
 * of a static final boolean.
 */
public final class Failpoints {
    public static final String PROPERTY = "clawgate.failpoint";
    public static final String RANDOM_PROPERTY = "clawgate.failpoint.random";
    /** The exit status of a halted process: what a shell reports for SIGKILL. */
    public static final int HALT_STATUS = 137;

    /** After the inbox record and its dedupe key committed, before the record reaches the bus (SPEC IN-4). */
    public static final String INBOX_AFTER_RECORD = "inbox.after_record";
    /**
     * After a cron fire's claim and its inbox record committed together, before the record reaches the bus (SPEC IN-4,
     * OUT-12).
     */
    public static final String CRON_AFTER_CLAIM = "cron.after_claim";
    /** After the turn's user message was appended, before the agent loop runs. */
    public static final String TURN_MID_RUN = "turn.mid_run";
    /** After the turn's final state committed with its assistant message, before the reply is sent (SPEC OUT-12). */
    public static final String TURN_AFTER_REPLY_COMMIT = "turn.after_reply_commit";
    /** After the delivery intent committed, before it is claimed for sending (SPEC OUT-5). */
    public static final String OUTBOX_BEFORE_CLAIM = "outbox.after_intent";
    /**
     * After the platform accepted a payload, before the outbox records its receipt and marks the entry sent (SPEC
     * OUT-7).
     */
    public static final String OUTBOX_AFTER_SEND = "outbox.after_send";
    /**
     * After a received message's final reply got its durable decision (the turn ended with its intent committed),
     * before the inbound ack that waits for it goes to the platform: a cumulative ack at {@code after_durable_send}
     * about to advance (SPEC IN-3, OUT-5). The platform then redelivers; dedupe must keep it from a second reply (IN-1,
     * OUT-12).
     */
    public static final String OUTBOX_BEFORE_ACK = "outbox.before_ack";

    private static final FailpointPlan PLAN = load();
    private static final boolean ARMED = PLAN.armed();

    private Failpoints() {}

    /** Passes the named point: halts the JVM when the plan says this hit is the one. */
    public static void hit(String name) {
        if (!ARMED) return;
        if (PLAN.shouldHalt(name)) {
            System.err.println(
                    "clawgate: failpoint " + name + " fired (" + PLAN + "); halting with status " + HALT_STATUS);
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }

    private static FailpointPlan load() {
        try {
            return FailpointPlan.parse(System.getProperty(PROPERTY), System.getProperty(RANDOM_PROPERTY));
        } catch (IllegalArgumentException e) {
            // a crash test with a mistyped failpoint must not run unarmed and pass
            System.err.println("clawgate: " + e.getMessage());
            System.err.flush();
            Runtime.getRuntime().halt(2);
            throw e;
        }
    }
}

package dev.clawgate.testkit.contract;

import java.util.List;

/** A platform server's record of every call it received, in order: what each capability proof is checked against. */
@FunctionalInterface
public interface PlatformCallLog {
    /** Every call so far, oldest first. */
    List<PlatformCall> calls();
}

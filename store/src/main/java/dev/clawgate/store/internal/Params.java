package dev.clawgate.store.internal;

import java.util.Arrays;

/** Builds a statement's parameter list from a group of leading parameters and single values. */
final class Params {

    private Params() {}

    static Object[] of(Object[] head, Object... tail) {
        Object[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}

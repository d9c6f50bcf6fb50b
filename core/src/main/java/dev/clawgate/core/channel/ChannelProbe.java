package dev.clawgate.core.channel;

import java.util.List;
import java.util.Objects;

/**
 * What {@code clawgate doctor} learnt about one configured channel (SPEC OP-4, CH-0): each finding is fine, or a
 * problem with a one-line fix. Never holds a secret.
 */
public record ChannelProbe(List<Finding> findings) {
    public ChannelProbe {
        findings = List.copyOf(findings);
    }

    /** One check: {@code fix} is null when it passed. */
    public record Finding(String what, String fix) {
        public Finding {
            Objects.requireNonNull(what, "what");
        }

        public boolean ok() {
            return fix == null;
        }
    }

    public static ChannelProbe ok(String what) {
        return new ChannelProbe(List.of(new Finding(what, null)));
    }

    public static ChannelProbe problem(String what, String fix) {
        return new ChannelProbe(List.of(new Finding(what, Objects.requireNonNull(fix, "fix"))));
    }

    public boolean ok() {
        return findings.stream().allMatch(Finding::ok);
    }
}

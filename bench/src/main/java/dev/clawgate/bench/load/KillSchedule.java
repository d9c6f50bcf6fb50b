package dev.clawgate.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * When a kill test SIGKILLs the gateway (SPEC OUT-7, OUT-12): after {@code atReplies.get(k)} replies of the measured
 * phase, plus {@code delayMicros.get(k)}, so the kill lands wherever the gateway happens to be, not at a failpoint.
 * Drawn from a seeded {@link Random}: one kill in each of {@code kills} equal slices of the run, anywhere in its middle
 * half; the seed replays it.
 */
record KillSchedule(long seed, List<Integer> atReplies, List<Long> delayMicros) {
    private static final long MAX_DELAY_MICROS = 20_000;

    KillSchedule {
        atReplies = List.copyOf(atReplies);
        delayMicros = List.copyOf(delayMicros);
    }

    static KillSchedule none() {
        return new KillSchedule(0, List.of(), List.of());
    }

    static KillSchedule draw(int kills, int messages, long seed) {
        if (kills < 0) throw new IllegalArgumentException("--kills must not be negative");
        if (kills > 0 && messages < 4 * (kills + 1)) {
            throw new IllegalArgumentException("--kills " + kills + " needs at least " + 4 * (kills + 1) + " messages");
        }
        Random random = new Random(seed);
        List<Integer> at = new ArrayList<>();
        List<Long> delay = new ArrayList<>();
        int slice = messages / (kills + 1);
        for (int k = 1; k <= kills; k++) {
            // the middle half of the slice around the k-th boundary: never at the very start or end, never two at once
            at.add(k * slice - slice / 4 + random.nextInt(Math.max(1, slice / 2)));
            delay.add(random.nextLong(MAX_DELAY_MICROS));
        }
        return new KillSchedule(seed, at, delay);
    }

    int kills() {
        return atReplies.size();
    }
}

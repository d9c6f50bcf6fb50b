package dev.clawgate.bench.recall;

import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.Relevance;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The labelled recall set (issue 25): 50 target memories, each with an exact query (sharing keywords) and a paraphrase
 * (sharing no indexed term), among 154 distractors: 204 memories, 100 queries.
 */
public record RecallSet(List<Memory> memories, List<Query> queries) {
    public record Memory(String key, String text) {}

    public record Query(String text, String targetKey, boolean paraphrase) {}

    public static RecallSet load() {
        List<Memory> memories = new ArrayList<>();
        List<Query> queries = new ArrayList<>();
        for (String line : lines("targets.tsv")) {
            String[] f = line.split("\t");
            memories.add(new Memory(f[0], f[1]));
            queries.add(new Query(f[2], f[0], false));
            queries.add(new Query(f[3], f[0], true));
        }
        int n = 0;
        for (String line : lines("distractors.txt")) memories.add(new Memory(String.format("D%03d", ++n), line));
        return new RecallSet(List.copyOf(memories), List.copyOf(queries));
    }

    /** The indexed terms a paraphrase shares with its memory; the set promises there are none. */
    public Set<String> sharedTerms(Query q) {
        String text = memories.stream()
                .filter(m -> m.key().equals(q.targetKey()))
                .findFirst()
                .orElseThrow()
                .text();
        Set<String> shared = new HashSet<>(Relevance.queryTerms(q.text()));
        shared.retainAll(new HashSet<>(Relevance.indexTerms(q.targetKey(), text, MemoryEntry.CONVERSATION)));
        return shared;
    }

    private static List<String> lines(String name) {
        var in = RecallSet.class.getResourceAsStream(name);
        if (in == null) throw new IllegalStateException("missing resource " + name);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return r.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

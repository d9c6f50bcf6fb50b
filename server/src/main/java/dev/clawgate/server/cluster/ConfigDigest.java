package dev.clawgate.server.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a node's config file says, as the cluster compares it (SPEC OP-2, RT-3): one short hash per top-level section,
 * as {@code agent=1a2b...;providers=3c4d...}. Every node runs the same file but for its own places, so the keys that
 * name them ({@code gateway.bind}, {@code gateway.data_dir}, {@code agent.workspace}, {@code cluster.node_id}) are left
 * out. Only section names and hashes leave the node, never a value: a section may hold a secret.
 */
public final class ConfigDigest {
    private static final TomlMapper TOML = new TomlMapper();
    private static final Map<String, Set<String>> NODE_LOCAL = Map.of(
            "gateway", Set.of("bind", "data_dir"),
            "agent", Set.of("workspace"),
            "cluster", Set.of("node_id"));

    private ConfigDigest() {}

    /** The digest of {@code file}; empty when the file is gone or cannot be parsed (the loader says why). */
    public static String of(Path file) {
        JsonNode root;
        try {
            root = TOML.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return "";
        }
        Map<String, String> sections = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode value = e.getValue().deepCopy();
            if (value instanceof ObjectNode o)
                for (String local : NODE_LOCAL.getOrDefault(e.getKey(), Set.of())) o.remove(local);
            sections.put(e.getKey(), hash(value.toString()));
        }
        StringBuilder out = new StringBuilder();
        sections.forEach((k, v) ->
                out.append(out.isEmpty() ? "" : ";").append(k).append('=').append(v));
        return out.toString();
    }

    /** The sections whose hashes differ between two digests (present in one only counts), by name. */
    public static List<String> differingSections(String a, String b) {
        Map<String, String> left = parse(a);
        Map<String, String> right = parse(b);
        Set<String> names = new TreeSet<>(left.keySet());
        names.addAll(right.keySet());
        List<String> out = new ArrayList<>();
        for (String n : names) if (!java.util.Objects.equals(left.get(n), right.get(n))) out.add(n);
        return out;
    }

    private static Map<String, String> parse(String digest) {
        Map<String, String> out = new TreeMap<>();
        if (digest == null || digest.isEmpty()) return out;
        for (String part : digest.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) out.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return out;
    }

    private static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}

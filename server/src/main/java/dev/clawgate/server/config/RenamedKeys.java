package dev.clawgate.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Config keys that changed name (SPEC OP-9 upgrades): a file written for an earlier name still loads, its value read
 * under the new name, with one warning per key saying what to rename. Setting both names is an error, since they would
 * disagree. Every rename is declared once, in {@link #KNOWN}; {@code <name>} stands for a name the user picks (a
 * channel, a provider) and must sit at the same place in both paths.
 */
final class RenamedKeys {
    /** An old key path and the key it is now, e.g. {@code channels.<name>.x} to {@code channels.<name>.y}. */
    record Rename(String oldPath, String newPath) {
        Rename {
            if (count(oldPath) != count(newPath))
                throw new IllegalArgumentException("a rename must keep its names: " + oldPath + " -> " + newPath);
        }

        private static long count(String path) {
            return Arrays.stream(path.split("\\."))
                    .filter(ConfigSchema.NAME_PLACEHOLDER::equals)
                    .count();
        }
    }

    /**
     * Every rename, oldest first. The block streaming sizes were {@code chunk.min_chars} and {@code chunk.max_chars} in
     * SPEC OUT-2's wording; the gateway reads them as {@code min_chars} and {@code max_chars} of the channel's
     * {@code [block_streaming]} table.
     */
    static final List<Rename> KNOWN = List.of(
            new Rename("channels.<name>.block_streaming.chunk.min_chars", "channels.<name>.block_streaming.min_chars"),
            new Rename("channels.<name>.block_streaming.chunk.max_chars", "channels.<name>.block_streaming.max_chars"));

    private final List<Rename> renames;

    RenamedKeys(List<Rename> renames) {
        this.renames = List.copyOf(renames);
    }

    /**
     * Moves each old key in {@code root} to its new name, in place; one warning per key moved (the paths, never the
     * value).
     *
     * @throws ConfigException when a key is set under both its old and its new name
     */
    List<String> apply(JsonNode root, String file) {
        List<String> warnings = new ArrayList<>();
        if (!(root instanceof ObjectNode top)) return warnings;
        for (Rename r : renames) {
            String[] from = r.oldPath().split("\\.");
            String[] to = r.newPath().split("\\.");
            List<List<String>> found = new ArrayList<>();
            collect(top, from, 0, new ArrayList<>(), found);
            for (List<String> names : found) {
                String oldShown = bind(from, names);
                String newShown = bind(to, names);
                JsonNode value = remove(top, oldShown.split("\\."));
                ObjectNode parent = parentOf(top, newShown.split("\\."));
                String leaf = to[to.length - 1];
                if (parent.has(leaf)) {
                    throw new ConfigException("'" + newShown + "' and its old name '" + oldShown + "' are both set in "
                            + file + "; keep only '" + newShown + "'");
                }
                parent.set(leaf, value);
                warnings.add("config: '" + oldShown + "' in " + file + " is now called '" + newShown
                        + "'; it was read as that; rename it in the file");
            }
        }
        return warnings;
    }

    /** Each way {@code path} matches from {@code node}: the user-chosen names its placeholders stand for. */
    private static void collect(JsonNode node, String[] path, int at, List<String> names, List<List<String>> out) {
        if (!(node instanceof ObjectNode object)) return;
        String segment = path[at];
        boolean last = at == path.length - 1;
        if (ConfigSchema.NAME_PLACEHOLDER.equals(segment)) {
            for (String name : new ArrayList<>(iterable(object))) {
                List<String> more = new ArrayList<>(names);
                more.add(name);
                if (last) out.add(more);
                else collect(object.get(name), path, at + 1, more, out);
            }
            return;
        }
        if (!object.has(segment)) return;
        if (last) out.add(names);
        else collect(object.get(segment), path, at + 1, names, out);
    }

    private static List<String> iterable(ObjectNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String bind(String[] path, List<String> names) {
        List<String> out = new ArrayList<>();
        int next = 0;
        for (String segment : path) {
            out.add(ConfigSchema.NAME_PLACEHOLDER.equals(segment) ? names.get(next++) : segment);
        }
        return String.join(".", out);
    }

    /** Removes the key at {@code path}, and each table on the way that it leaves empty; its value. */
    private static JsonNode remove(ObjectNode root, String[] path) {
        List<ObjectNode> tables = new ArrayList<>();
        ObjectNode node = root;
        for (int i = 0; i < path.length - 1; i++) {
            tables.add(node);
            node = (ObjectNode) node.get(path[i]);
        }
        JsonNode value = node.remove(path[path.length - 1]);
        for (int i = path.length - 2; i >= 0 && node.isEmpty(); i--) {
            ObjectNode parent = tables.get(i);
            parent.remove(path[i]);
            node = parent;
        }
        return value;
    }

    /** The table that holds the last key of {@code path}, made where missing. */
    private static ObjectNode parentOf(ObjectNode root, String[] path) {
        ObjectNode node = root;
        for (int i = 0; i < path.length - 1; i++) {
            JsonNode child = node.get(path[i]);
            if (child == null) {
                node = node.putObject(path[i]);
            } else if (child instanceof ObjectNode table) {
                node = table;
            } else {
                throw new ConfigException(
                        "'" + String.join(".", Arrays.copyOf(path, i + 1)) + "' must be a table to hold a renamed key");
            }
        }
        return node;
    }
}

package dev.clawgate.core.tool;

import dev.clawgate.core.provider.ToolSpec;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The tools one agent may use, by name, in registration order. Immutable. */
public final class ToolRegistry {
    private final Map<String, Tool> tools;

    public ToolRegistry(Collection<? extends Tool> tools) {
        Map<String, Tool> m = new LinkedHashMap<>();
        for (Tool t : tools) {
            if (m.putIfAbsent(t.name(), t) != null) throw new IllegalArgumentException("two tools named " + t.name());
        }
        this.tools = java.util.Collections.unmodifiableMap(m);
    }

    public static ToolRegistry empty() {
        return new ToolRegistry(List.of());
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    public Set<String> names() {
        return tools.keySet();
    }

    public Collection<Tool> all() {
        return tools.values();
    }

    public List<ToolSpec> specs() {
        return tools.values().stream().map(Tool::spec).toList();
    }

    public boolean isEmpty() {
        return tools.isEmpty();
    }
}

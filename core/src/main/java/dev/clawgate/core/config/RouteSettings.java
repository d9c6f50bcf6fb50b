package dev.clawgate.core.config;

import java.util.List;

/** One {@code [[routes]]} entry (SPEC RT-2): keywords to a hint, the hint to provider + model. */
public record RouteSettings(String hint, List<String> keywords, String provider, String model) {
    public RouteSettings {
        keywords = keywords == null ? List.of() : List.copyOf(keywords);
    }
}

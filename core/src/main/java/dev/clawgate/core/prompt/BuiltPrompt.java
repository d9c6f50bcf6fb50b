package dev.clawgate.core.prompt;

import java.util.List;
import java.util.Optional;

/**
 * A finished system prompt: the text sent to the model and the sections it is made of, in order (SPEC SP-1), so the
 * turn inspector can show each one and its size (SPEC OP-8).
 */
public record BuiltPrompt(String text, List<PromptSection> sections) {
    /** Sections are separated by one blank line. */
    static final String SEPARATOR = "\n\n";

    public BuiltPrompt {
        sections = List.copyOf(sections);
    }

    static BuiltPrompt of(List<PromptSection> sections) {
        return new BuiltPrompt(
                String.join(
                        SEPARATOR, sections.stream().map(PromptSection::text).toList()),
                sections);
    }

    public List<String> sectionNames() {
        return sections.stream().map(PromptSection::name).toList();
    }

    public Optional<PromptSection> section(String name) {
        return sections.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}

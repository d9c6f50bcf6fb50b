package dev.clawgate.core.provider;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool as a model sees it: name, description and the JSON schema of its arguments. */
public record ToolSpec(String name, String description, JsonNode parameters) {}

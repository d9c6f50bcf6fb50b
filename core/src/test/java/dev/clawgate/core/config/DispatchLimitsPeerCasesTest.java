package dev.clawgate.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.fixtures.PeerCases;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Table-driven from shared/fixtures/peer-cases.json: the turn time budget and the in-flight limit, on the config
 * records.
 */
class DispatchLimitsPeerCasesTest {

    // SPEC DI-6
    @TestFactory
    Stream<DynamicTest> turnBudgetMatchesEveryPeerCase() {
        return Stream.of(
                        PeerCases.forFunction("channel_message_timeout_budget_secs").stream()
                                .map(c -> dynamicTest(
                                        c.displayName() + " [SPEC DI-6]",
                                        () -> assertThat(budget(
                                                        c.input()
                                                                .get("base_secs")
                                                                .asInt(),
                                                        c.input()
                                                                .get("max_tool_iterations")
                                                                .asInt(),
                                                        4))
                                                .isEqualTo(c.expected().asLong()))),
                        PeerCases.forFunction("channel_message_timeout_budget_secs_with_cap").stream()
                                .map(c -> dynamicTest(
                                        c.displayName() + " [SPEC DI-6]",
                                        () -> assertThat(budget(
                                                        c.input()
                                                                .get("base_secs")
                                                                .asInt(),
                                                        c.input()
                                                                .get("max_tool_iterations")
                                                                .asInt(),
                                                        c.input()
                                                                .get("scale_cap")
                                                                .asInt()))
                                                .isEqualTo(c.expected().asLong()))),
                        // the per-message timeout has a floor of 30 s: with one iteration the budget is that floor
                        PeerCases.forFunction("effective_channel_message_timeout_secs").stream()
                                .map(c -> dynamicTest(
                                        c.displayName() + " [SPEC DI-6]",
                                        () -> assertThat(budget(c.input().asInt(), 1, 4))
                                                .isEqualTo(c.expected().asLong()))))
                .flatMap(s -> s);
    }

    // SPEC DI-2
    @TestFactory
    Stream<DynamicTest> inFlightLimitMatchesEveryPeerCase() {
        return PeerCases.forFunction("compute_max_in_flight_messages").stream()
                .map(c -> dynamicTest(c.displayName() + " [SPEC DI-2]", () -> {
                    JsonNode in = c.input();
                    int channels = in.get("channel_count").asInt();
                    int perChannel = in.get("max_concurrent_per_channel").asInt();
                    assertThat(DispatchSettings.defaults().effectiveMaxInFlight(channels, perChannel))
                            .isEqualTo(c.expected().asInt());
                    assertThat(new DispatchSettings(100, 5).effectiveMaxInFlight(channels, perChannel))
                            .as("a configured limit wins over the formula")
                            .isEqualTo(5);
                }));
    }

    private static long budget(int baseSecs, int iterations, int scaleCap) {
        return new AgentSettings(null, null, iterations, baseSecs, scaleCap, Path.of("w"), false, List.of())
                .turnBudgetSecs();
    }
}

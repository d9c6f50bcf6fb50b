package dev.clawgate.core.internal.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.clawgate.core.fixtures.PeerCases;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Table-driven from shared/fixtures/peer-cases.json: which texts are the /stop command. */
class RuntimeCommandPeerCasesTest {

    // SPEC RT-1, DI-5
    @TestFactory
    Stream<DynamicTest> stopIsRecognisedExactlyWhereThePeerRecognisesIt() {
        return PeerCases.forFunction("is_stop_command").stream()
                .map(c -> dynamicTest(
                        c.displayName() + " [SPEC RT-1]",
                        () -> assertThat(RuntimeCommand.parse(c.input().asText())
                                        .filter(RuntimeCommand.Stop.class::isInstance)
                                        .isPresent())
                                .as("'%s' is /stop", c.input().asText())
                                .isEqualTo(c.expected().asBoolean())));
    }
}

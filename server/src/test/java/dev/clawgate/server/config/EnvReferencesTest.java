package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvReferencesTest {
    private static final Map<String, String> ENV = Map.of("A", "1", "B_2", "two", "EMPTY", "");

    @Test
    void referencesExpandInPlaceAndTextAroundThemIsKept() throws Exception {
        // SPEC OP-6
        assertThat(EnvReferences.expand("x${A}y${B_2}z", ENV).value()).isEqualTo("x1ytwoz");
        assertThat(EnvReferences.expand("${A}${A}", ENV).value()).isEqualTo("11");
        assertThat(EnvReferences.expand("[${EMPTY}]", ENV).value()).isEqualTo("[]");
        assertThat(EnvReferences.expand("no refs $ here {A}", ENV).value()).isEqualTo("no refs $ here {A}");
    }

    @Test
    void aDoubledDollarIsALiteralAndIsNotExpandedFurther() throws Exception {
        // SPEC OP-6
        assertThat(EnvReferences.expand("$${A}", ENV).value()).isEqualTo("${A}");
        assertThat(EnvReferences.expand("$$${A}", ENV).value()).isEqualTo("$${A}");
        assertThat(EnvReferences.expand("$$", ENV).value()).isEqualTo("$$");
    }

    @Test
    void theFirstUnsetVariableIsReportedAndNoPartialValueEscapes() throws Exception {
        // SPEC OP-6
        EnvReferences.Expansion x = EnvReferences.expand("${A}-${NOPE}-${ALSO_NOPE}", ENV);
        assertThat(x.complete()).isFalse();
        assertThat(x.missingVariable()).isEqualTo("NOPE");
        assertThat(x.value()).isNull();
    }

    @Test
    void malformedReferencesAreRejected() {
        // SPEC OP-6
        assertThatThrownBy(() -> EnvReferences.expand("${A", ENV)).hasMessageContaining("unterminated");
        assertThatThrownBy(() -> EnvReferences.expand("${}", ENV)).hasMessageContaining("not a variable name");
        assertThatThrownBy(() -> EnvReferences.expand("${1A}", ENV)).hasMessageContaining("not a variable name");
        assertThatThrownBy(() -> EnvReferences.expand("${A B}", ENV)).hasMessageContaining("not a variable name");
    }
}

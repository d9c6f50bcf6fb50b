package dev.clawgate.core.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

// SPEC AG-5: every word, every "=" value and every tail of a short-option cluster is a possible path
class ArgumentPathsTest {
    @Test
    void aShortOptionClusterYieldsEveryTailAfterItsFirstLetter() {
        assertThat(ArgumentPaths.candidates("-uf/etc/x"))
                .containsExactly("-uf/etc/x", "f/etc/x", "/etc/x", "etc/x", "tc/x", "c/x", "/x", "x");
        assertThat(ArgumentPaths.candidates("-o")).containsExactly("-o");
    }

    @Test
    void everyValueAfterAnEqualsSignIsAPossiblePath() {
        assertThat(ArgumentPaths.candidates("--output=/x")).containsExactly("--output=/x", "/x");
        assertThat(ArgumentPaths.candidates("of=a=b")).containsExactly("of=a=b", "a=b", "b");
        assertThat(ArgumentPaths.candidates("-o=/x")).contains("=/x", "/x");
    }

    @Test
    void longOptionsAndPlainWordsAreTakenWhole() {
        assertThat(ArgumentPaths.candidates("--target-directory")).containsExactly("--target-directory");
        assertThat(ArgumentPaths.candidates("notes.txt")).containsExactly("notes.txt");
    }
}

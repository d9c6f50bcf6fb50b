package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.store.Store;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code clawgate memory list|search|forget} on the store of the config's data dir (SPEC OP-4, ME-2). */
class MemoryCommandTest extends StoreCommandCase {
    @BeforeEach
    void seed() {
        try (Store store = store()) {
            store.memory()
                    .store(MemoryScope.global(), "office_wifi", "The office wifi password is on the fridge", "core");
            store.memory().store(MemoryScope.sender("telegram", "42"), "favourite_food", "Alice likes ramen", "core");
        }
    }

    @Test
    void listSearchAndForget() {
        // SPEC OP-4 `clawgate memory`
        CliRunner.Result list = CliRunner.run("memory", "list", "--config", config.toString());
        assertThat(list.exit()).isZero();
        assertThat(list.out()).contains("office_wifi").doesNotContain("ramen");

        CliRunner.Result search = CliRunner.run(
                "memory", "search", "ramen", "--scope", "global,sender:telegram:42", "--config", config.toString());
        assertThat(search.out()).contains("favourite_food").containsPattern("[01]\\.\\d\\d");

        assertThat(CliRunner.run("memory", "forget", "office_wifi", "--config", config.toString())
                        .exit())
                .isZero();
        assertThat(CliRunner.run("memory", "list", "--config", config.toString())
                        .out())
                .contains("No memories");
        CliRunner.Result again = CliRunner.run("memory", "forget", "office_wifi", "--config", config.toString());
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("no memory office_wifi");
        assertThat(CliRunner.run("memory", "list", "--scope", "nonsense", "--config", config.toString())
                        .exit())
                .isEqualTo(2);
    }
}

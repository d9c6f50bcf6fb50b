package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueDirectiveTest {
    @Test
    void aModeWithOptionsSetsEachForTheSession() {
        // SPEC DI-3: /queue MODE [debounce:0.5s] [cap:N] [drop:old|new|summarize]
        QueueDirective.Result r = QueueDirective.parse("collect debounce:0.5s cap:3 drop:new");
        assertThat(r.settings())
                .containsExactly(
                        Map.entry(QueueDirective.MODE, "collect"),
                        Map.entry(QueueDirective.DEBOUNCE_MS, "500"),
                        Map.entry(QueueDirective.CAP, "3"),
                        Map.entry(QueueDirective.DROP, "new"));
        assertThat(r.reply()).contains("collect", "500 ms", "cap 3", "drop new");
        assertThat(QueueDirective.parse("followup debounce:250ms").settings())
                .containsEntry(QueueDirective.DEBOUNCE_MS, "250");
    }

    @Test
    void resetClearsEverySetting() {
        // SPEC DI-3: /queue reset clears it
        Map<String, String> expected = new HashMap<>();
        for (String k :
                new String[] {QueueDirective.MODE, QueueDirective.DEBOUNCE_MS, QueueDirective.CAP, QueueDirective.DROP})
            expected.put(k, null);
        assertThat(QueueDirective.parse("reset").settings()).isEqualTo(expected);
    }

    @Test
    void retiredNamesMapToSteerAndSaySo() {
        // SPEC DI-3: retired names are accepted and mapped to steer, with a warning
        QueueDirective.Result r = QueueDirective.parse("steer-backlog");
        assertThat(r.settings()).containsEntry(QueueDirective.MODE, "steer");
        assertThat(r.reply()).contains("retired");
    }

    @Test
    void badArgumentsChangeNothingAndExplain() {
        // SPEC DI-3
        for (String bad : new String[] {
            "",
            "sideways",
            "collect cap:0",
            "collect cap:x",
            "collect drop:all",
            "collect debounce:-1s",
            "collect speed:2",
            "collect cap"
        }) {
            QueueDirective.Result r = QueueDirective.parse(bad);
            assertThat(r.settings()).as(bad).isEmpty();
            assertThat(r.reply()).as(bad).isNotBlank();
        }
    }
}

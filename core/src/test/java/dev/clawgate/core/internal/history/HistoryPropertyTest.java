package dev.clawgate.core.internal.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.fixtures.PropertyRun;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Invariants of normalising and trimming over thousands of generated transcripts. */
class HistoryPropertyTest {
    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "caf\u00e9", "42", "x\ny", "\uD83D\uDE00"
    };

    /**
     * A transcript as the store holds it (SPEC HI-2): user and assistant messages, in any order, with some protocol
     * noise.
     */
    private static List<ChatMessage> transcript(Random r, int words) {
        int n = r.nextInt(14);
        List<ChatMessage> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder text = new StringBuilder("w" + i + "-" + r.nextInt(1000));
            for (int w = r.nextInt(words); w > 0; w--) text.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
            if (r.nextInt(5) == 0)
                text.append("\n<tool_result name=\"shell\">noise").append(i).append("</tool_result>");
            if (r.nextInt(6) == 0) text.append(" [IMAGE:/tmp/p").append(i).append(".png]");
            if (r.nextInt(8) == 0) text.setLength(0);
            out.add(r.nextBoolean() ? ChatMessage.user(text.toString()) : ChatMessage.assistant(text.toString()));
        }
        return out;
    }

    // SPEC HI-3: roles strictly alternate, starting with the user
    @Test
    void normalisedHistoryAlwaysAlternatesStartingWithTheUser() {
        PropertyRun.forAll("normalised roles alternate", r -> {
            List<ChatMessage> in = transcript(r, 4);
            List<ChatMessage> out = HistoryNormalizer.normalize(in, r.nextBoolean());
            for (int i = 0; i < out.size(); i++) {
                assertThat(out.get(i).role())
                        .as("role %d of %s from %s", i, out, in)
                        .isEqualTo(i % 2 == 0 ? Role.USER : Role.ASSISTANT);
            }
        });
    }

    // SPEC HI-3: only protocol text and images are removed; every other word survives, in order
    @Test
    void normalisingNeverLosesTextThatIsNotProtocol() {
        PropertyRun.forAll("normalising keeps non-protocol text", r -> {
            List<ChatMessage> in = transcript(r, 4);
            in.add(ChatMessage.user("current-" + r.nextInt(1000)));
            boolean vision = r.nextBoolean();
            String joined = String.join(
                    "\n",
                    HistoryNormalizer.normalize(in, vision).stream()
                            .map(ChatMessage::content)
                            .toList());
            assertThat(joined).doesNotContain("noise");
            if (!vision) assertThat(joined).doesNotContain("[IMAGE:");
            int from = 0;
            boolean seenUser = false;
            for (int i = 0; i < in.size(); i++) {
                ChatMessage m = in.get(i);
                seenUser |= m.role() == Role.USER && !m.content().isEmpty();
                // an assistant message before any non-empty user message has no turn and is dropped by design
                if (!seenUser || m.content().isEmpty()) continue;
                String marker = m.content().substring(0, m.content().indexOf('-') + 1);
                int at = joined.indexOf(marker, from);
                assertThat(at)
                        .as("'%s' of message %d kept in order in %s", marker, i, joined)
                        .isGreaterThanOrEqualTo(0);
                from = at + marker.length();
            }
        });
    }

    // SPEC HI-4: the current user turn is never dropped, and the budget holds whenever whole turns allow it
    @Test
    void trimmingKeepsTheCurrentTurnAndRespectsTheBudgetWhenPossible() {
        PropertyRun.forAll("trimming", r -> {
            List<ChatMessage> in = new ArrayList<>(HistoryNormalizer.normalize(transcript(r, 30), true));
            in.add(ChatMessage.user("current-" + r.nextInt()));
            in = HistoryNormalizer.normalize(in, true);
            long budget = r.nextInt(400);
            TrimResult t = HistoryTrimmer.trim(in, budget);
            ChatMessage lastUser = in.get(in.size() - 1);
            assertThat(t.history()).as("last user turn kept").endsWith(lastUser);
            assertThat(in).endsWith(t.history().toArray(ChatMessage[]::new));
            assertThat(t.droppedMessages()).isEqualTo(in.size() - t.history().size());
            long size = t.history().stream().mapToLong(HistoryTrimmer::size).sum();
            long currentTurn = HistoryTrimmer.size(lastUser);
            if (budget > 0 && currentTurn <= budget)
                assertThat(size).as("within budget %d", budget).isLessThanOrEqualTo(budget);
            if (t.trimmed()) {
                ChatMessage first = t.history().get(0);
                assertThat(first.role()).as("trimmed history starts a turn").isEqualTo(Role.USER);
                int lastDroppedTurn = t.droppedMessages() - 1;
                while (in.get(lastDroppedTurn).role() != Role.USER) lastDroppedTurn--;
                long withOneMoreTurn = size;
                for (int i = lastDroppedTurn; i < t.droppedMessages(); i++)
                    withOneMoreTurn += HistoryTrimmer.size(in.get(i));
                assertThat(withOneMoreTurn).as("no more dropped than needed").isGreaterThan(budget);
            }
        });
    }
}

package dev.clawgate.core.internal.memory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.internal.history.ConversationKeys;
import dev.clawgate.core.internal.toolcall.ThinkTags;
import dev.clawgate.core.memory.Relevance;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.provider.ChatRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code llm} half of consolidation (SPEC ME-6, ME-7): the one-shot request that asks the agent's model for the few
 * durable facts a turn revealed about the user, the reading of its answer, and the hygiene every fact passes before it
 * is kept. A fact is the model's own short sentence; one that repeats the assistant's reply word for word, carries a
 * recalled {@code [Memory context]}, tool output or protocol text, or says nothing, is not kept.
 */
public final class FactExtraction {
    /** At most this many facts are kept from one turn. */
    public static final int MAX_FACTS = 3;

    static final int MIN_FACT_CHARS = 8;
    static final int MAX_FACT_CHARS = 300;
    /** The user's words and the reply are each cut to this before they are sent: a bounded request. */
    static final int MAX_INPUT_CHARS = 4_000;
    /** A copied run of this many words of the reply is the reply's text, not a fact in the model's words. */
    static final int COPIED_WORDS = 6;

    public static final String INSTRUCTION = """
            You keep a long-term memory about the user of a chat assistant. From the exchange below, \
            extract at most %d durable facts about the user that will still matter in later conversations: \
            preferences, personal details, ongoing plans, standing instructions. Write each fact as one short \
            third-person sentence in your own words, such as "The user's cat is named Pixel." Do not copy \
            sentences from the assistant's reply. Skip greetings, questions, small talk and anything that is \
            only true for this moment. Answer with a JSON array of strings and nothing else; answer [] when \
            there is nothing durable.""".formatted(MAX_FACTS);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FORBIDDEN = Set.of(
            MemoryContext.HEADER,
            "<tool_result",
            "<tool_call",
            "<toolcall",
            "<tool-call",
            "<invoke",
            "[IMAGE:",
            "[DOCUMENT:",
            "[Used tools:",
            "```");

    private FactExtraction() {}

    /** The request: the instruction as the system message, the exchange as the user message; no tools, no streaming. */
    public static ChatRequest request(String model, String userText, String reply) {
        String exchange = "User:\n" + cut(userText) + "\n\nAssistant:\n" + cut(reply);
        return new ChatRequest(
                model, List.of(ChatMessage.system(INSTRUCTION), ChatMessage.user(exchange)), List.of(), false, 0.0);
    }

    /**
     * The facts of a model's answer: the strings of the first JSON array in it (reasoning tags removed), in order, one
     * per wording up to case and punctuation. An answer without such an array has none.
     */
    public static List<String> parse(String answer) {
        String visible = ThinkTags.strip(answer == null ? "" : answer);
        int open = visible.indexOf('[');
        int close = visible.lastIndexOf(']');
        if (open < 0 || close < open) return List.of();
        JsonNode array;
        try {
            array = JSON.readTree(visible.substring(open, close + 1));
        } catch (JsonProcessingException e) {
            return List.of();
        }
        if (!array.isArray()) return List.of();
        // one fact per wording up to case and punctuation: the first spelling wins, as the key would collide
        Map<String, String> facts = new LinkedHashMap<>();
        for (JsonNode n : array) {
            if (!n.isTextual()) continue;
            String fact = tidy(n.asText());
            if (!fact.isEmpty()) facts.putIfAbsent(String.join(" ", Relevance.words(fact)), fact);
        }
        return List.copyOf(facts.values());
    }

    /**
     * Why {@code fact} is not kept (SPEC ME-7), or empty when it is: too short or long, protocol or memory-context
     * text, no meaningful word, or a run of the assistant's reply copied word for word that the user did not say.
     */
    public static Optional<String> refusal(String fact, String userText, String reply, int maxEntryChars) {
        int chars = fact.codePointCount(0, fact.length());
        if (chars < MIN_FACT_CHARS) return Optional.of("shorter than " + MIN_FACT_CHARS + " characters");
        if (chars > Math.min(MAX_FACT_CHARS, maxEntryChars))
            return Optional.of("longer than " + Math.min(MAX_FACT_CHARS, maxEntryChars) + " characters");
        for (String f : FORBIDDEN) {
            if (fact.contains(f)) return Optional.of("holds " + f);
        }
        if (Relevance.queryTerms(fact).isEmpty()) return Optional.of("says nothing that could be recalled");
        List<String> words = Relevance.words(fact);
        if (copies(words, Relevance.words(reply)) && !copies(words, Relevance.words(userText))) {
            return Optional.of("repeats the assistant's reply");
        }
        return Optional.empty();
    }

    /** {@code {channel}_{sender}_fact_{hash}}: one key per fact wording in a sender's scope. */
    public static String key(String channel, String sender, String fact) {
        return ConversationKeys.sanitize(channel + "_" + sender) + "_fact_"
                + hash(String.join(" ", Relevance.words(fact)));
    }

    /**
     * Whether {@code fact} shares a run of {@link #COPIED_WORDS} words (or all of itself, when shorter) with
     * {@code text}.
     */
    static boolean copies(List<String> fact, List<String> text) {
        int run = Math.min(COPIED_WORDS, fact.size());
        if (run == 0 || text.size() < run) return false;
        Set<List<String>> shingles = new java.util.HashSet<>();
        for (int i = 0; i + run <= text.size(); i++) shingles.add(text.subList(i, i + run));
        for (int i = 0; i + run <= fact.size(); i++) {
            if (shingles.contains(fact.subList(i, i + run))) return true;
        }
        return false;
    }

    private static String tidy(String s) {
        String t = s.strip().replaceAll("\\s+", " ");
        // a bullet or quotes the model put around the sentence
        t = t.replaceFirst("^[-*•]\\s*", "");
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\""))
            t = t.substring(1, t.length() - 1).strip();
        return t;
    }

    private static String cut(String s) {
        String t = s == null ? "" : s.strip();
        if (t.codePointCount(0, t.length()) <= MAX_INPUT_CHARS) return t;
        return t.substring(0, t.offsetByCodePoints(0, MAX_INPUT_CHARS)) + "…";
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}

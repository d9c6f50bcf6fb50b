package dev.clawgate.core.internal.turn;

import dev.clawgate.core.provider.ProviderException;
import java.util.regex.Pattern;

/** The short error a user sees when a turn fails (SPEC HI-6, OP-6): no keys, no URLs with tokens, no stack traces. */
final class UserFacingError {
    private static final Pattern SECRETISH = Pattern.compile(
            "(?i)(sk-[A-Za-z0-9_\\-]{8,}|bearer\\s+[A-Za-z0-9._\\-]+|(api[_-]?key|token|secret|password)=[^\\s&]+|htt"
                    + "ps?://\\S+)");

    private UserFacingError() {}

    public static String of(Throwable e) {
        if (e instanceof ProviderException pe) {
            return switch (pe.kind()) {
                case AUTH -> "⚠️ The model provider refused our credentials. Check the api_key in clawgate.toml.";
                case RATE_LIMITED -> "⚠️ The model provider is rate-limiting us. Please try again in a moment.";
                case TRANSIENT -> "⚠️ The model provider could not be reached. Please try again.";
                case CONTEXT_OVERFLOW ->
                    "⚠️ This conversation is too long for the model, even after compacting it. Send /new to start "
                            + "over.";
                case VISION_UNSUPPORTED -> "⚠️ This model cannot read images. Send text, or switch model with /model.";
                case FATAL -> "⚠️ The model request failed: " + redact(shorten(pe.getMessage()));
            };
        }
        return "⚠️ Something went wrong while answering (" + e.getClass().getSimpleName() + ").";
    }

    /** Removes anything that looks like a credential or a URL. */
    public static String redact(String s) {
        return s == null ? "" : SECRETISH.matcher(s).replaceAll("[redacted]");
    }

    private static String shorten(String s) {
        if (s == null) return "";
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }
}

package dev.clawgate.core.internal.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes a tool's output fit for history (SPEC AG-3): inline base64 images are saved as files and replaced by
 * {@code [IMAGE:path]} markers, and the text is cut to the configured size with a note saying so.
 */
final class ToolOutput {
    private static final Pattern DATA_URI =
            Pattern.compile("data:(image/(png|jpeg|jpg|gif|webp));base64,([A-Za-z0-9+/=\\r\\n]{16,})");

    private ToolOutput() {}

    static String forHistory(String output, int maxChars, Path imageDir) {
        String text = replaceImages(output == null ? "" : output, imageDir);
        return cut(text, maxChars);
    }

    static String cut(String text, int maxChars) {
        if (maxChars <= 0 || text.length() <= maxChars) return text;
        int end = maxChars;
        if (Character.isHighSurrogate(text.charAt(end - 1))) end--;
        return text.substring(0, end) + "\n[output cut: " + end + " of " + text.length()
                + " characters shown (tools.max_result_chars)]";
    }

    static String replaceImages(String text, Path imageDir) {
        Matcher m = DATA_URI.matcher(text);
        if (!m.find()) return text;
        StringBuilder sb = new StringBuilder();
        m.reset();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(saveImage(m.group(2), m.group(3), imageDir)));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static String saveImage(String ext, String base64, Path imageDir) {
        try {
            byte[] bytes = Base64.getMimeDecoder().decode(base64);
            Files.createDirectories(imageDir);
            Path file = Files.createTempFile(imageDir, "tool-image-", "." + (ext.equals("jpeg") ? "jpg" : ext));
            Files.write(file, bytes);
            return "[IMAGE:" + file.toAbsolutePath() + "]";
        } catch (IllegalArgumentException | IOException e) {
            return "[IMAGE: not kept: " + e.getClass().getSimpleName() + "]";
        }
    }
}

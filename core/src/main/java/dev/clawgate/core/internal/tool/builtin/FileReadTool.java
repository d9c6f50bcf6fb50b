package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code file_read}: a UTF-8 text file inside the workspace (SPEC AG-5), optionally a window of lines, cut to
 * {@code tools.max_result_chars} with a note saying where to continue (SPEC AG-3).
 */
final class FileReadTool extends BuiltinTool {
    public static final String NAME = "file_read";
    /** How many leading bytes are checked for a NUL byte, the mark of a binary file. */
    static final int BINARY_SNIFF_BYTES = 8192;
    /** Room kept for the note that says where the output was cut, so the whole fits the budget. */
    static final int NOTE_RESERVE = 120;

    private final int maxResultChars;

    public FileReadTool(int maxResultChars) {
        super(
                NAME,
                "Read a UTF-8 text file in the workspace. Use offset and limit (in lines) to read a long file in parts."
                        + " An image file is returned as an [IMAGE:path] marker.",
                ArgumentSchema.object()
                        .string("path", "File path, relative to the workspace", true)
                        .integer("offset", "First line to return, counting from 1 (default 1)", 1, Integer.MAX_VALUE)
                        .integer("limit", "Largest number of lines to return (default: all that fit)", 1, 1_000_000));
        if (maxResultChars < 1) throw new IllegalArgumentException("maxResultChars must be positive");
        this.maxResultChars = maxResultChars;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        String shown = "?";
        try {
            ToolArguments args = ToolArguments.of(arguments);
            shown = args.requiredString("path");
            int offset = args.optionalInt("offset", 1, 1, Integer.MAX_VALUE);
            int limit = args.optionalInt("limit", 0, 1, 1_000_000);
            Path file = WorkspacePaths.resolve(context.workspace(), shown);
            if (!Files.exists(file)) return ToolResult.error("no such file: " + shown);
            if (Files.isDirectory(file)) return ToolResult.error(shown + " is a directory; use file_list");
            if (!Files.isRegularFile(file)) return ToolResult.error(shown + " is not a regular file");
            return read(file, shown, offset, limit);
        } catch (RefusedException e) {
            return ToolResult.error(e.getMessage());
        } catch (IOException e) {
            return ToolResult.error(IoFailures.describe(e, shown));
        }
    }

    private ToolResult read(Path file, String shown, int offset, int limit) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), BINARY_SNIFF_BYTES)) {
            in.mark(BINARY_SNIFF_BYTES);
            byte[] head = in.readNBytes(BINARY_SNIFF_BYTES);
            // an image goes to the model as a marker, never as bytes or base64 (SPEC AG-3, AG-4)
            if (ImageKind.of(file, head) != null) return ToolResult.ok("[IMAGE:" + file + "]");
            for (byte b : head) {
                if (b == 0)
                    return ToolResult.error(shown + " is a binary file (" + Files.size(file) + " bytes); not shown");
            }
            in.reset();
            Reader reader = new BufferedReader(new InputStreamReader(
                    in,
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)));
            return window(reader, shown, offset, limit);
        }
    }

    /** Collects lines [offset, offset+limit), stopping as soon as the budget is exceeded. */
    private ToolResult window(Reader reader, String shown, int offset, int limit) throws IOException {
        int budget = Math.max(1, maxResultChars - NOTE_RESERVE);
        StringBuilder out = new StringBuilder();
        int line = 1;
        int last = -1;
        boolean moreLines = false;
        boolean overBudget = false;
        int c;
        while ((c = reader.read()) != -1) {
            last = c;
            if (line >= offset) out.append((char) c);
            if (out.length() > budget) {
                overBudget = true;
                break;
            }
            if (c == '\n') {
                line++;
                if (limit > 0 && line >= offset + limit) {
                    moreLines = reader.read() != -1;
                    break;
                }
            }
        }
        if (last == -1) return ToolResult.ok("(empty file)");
        if (out.isEmpty()) {
            int lines = last == '\n' ? line - 1 : line;
            return ToolResult.error("offset " + offset + " is past the end of " + shown + " (" + lines + " lines)");
        }
        if (overBudget) {
            int keep = budget;
            if (Character.isHighSurrogate(out.charAt(keep - 1))) keep--;
            String kept = out.substring(0, keep);
            // the line holding the cut is shown again in full by the next read
            int resume = offset + (int) kept.chars().filter(ch -> ch == '\n').count();
            return ToolResult.ok(kept + "\n[... cut at " + keep
                    + " characters; the file continues: read on with offset=" + resume + "]");
        }
        if (moreLines) {
            int lastLine = offset + limit - 1;
            return ToolResult.ok(out + "[showing lines " + offset + "-" + lastLine
                    + "; more follow: read on with offset=" + (lastLine + 1) + "]");
        }
        return ToolResult.ok(out.toString());
    }
}

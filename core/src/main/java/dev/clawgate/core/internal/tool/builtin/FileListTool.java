package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code file_list}: the entries of a directory inside the workspace (SPEC AG-5), directories marked with a trailing
 * {@code /} and symbolic links with {@code @}. Recursion never follows a link and stops at a depth and an entry count.
 */
final class FileListTool extends BuiltinTool {
    public static final String NAME = "file_list";
    static final int DEFAULT_DEPTH = 3;
    static final int MAX_DEPTH = 10;
    static final int DEFAULT_ENTRIES = 200;
    static final int MAX_ENTRIES = 2_000;

    private final int maxResultChars;

    public FileListTool(int maxResultChars) {
        super(
                NAME,
                "List a directory in the workspace. Directories end with '/', symbolic links with '@'.",
                ArgumentSchema.object()
                        .string("path", "Directory, relative to the workspace (default \".\")", false)
                        .bool("recursive", "List subdirectories too (default false)")
                        .integer(
                                "max_depth",
                                "How deep a recursive listing goes (default " + DEFAULT_DEPTH + ")",
                                1,
                                MAX_DEPTH)
                        .integer(
                                "limit",
                                "Largest number of entries to list (default " + DEFAULT_ENTRIES + ")",
                                1,
                                MAX_ENTRIES));
        if (maxResultChars < 1) throw new IllegalArgumentException("maxResultChars must be positive");
        this.maxResultChars = maxResultChars;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        String shown = ".";
        try {
            ToolArguments args = ToolArguments.of(arguments);
            shown = args.optionalString("path", ".");
            boolean recursive = args.optionalBoolean("recursive", false);
            int depth = recursive ? args.optionalInt("max_depth", DEFAULT_DEPTH, 1, MAX_DEPTH) : 1;
            int limit = args.optionalInt("limit", DEFAULT_ENTRIES, 1, MAX_ENTRIES);
            Path dir = WorkspacePaths.resolve(context.workspace(), shown);
            if (!Files.exists(dir)) return ToolResult.error("no such directory: " + shown);
            if (!Files.isDirectory(dir)) return ToolResult.error(shown + " is not a directory; use file_read");
            Listing listing = new Listing(limit);
            walk(dir, "", depth, listing);
            if (listing.lines.isEmpty()) return ToolResult.ok("(empty directory)");
            StringBuilder out = new StringBuilder(String.join("\n", listing.lines));
            if (listing.full)
                out.append("\n[... listing stopped at ").append(limit).append(" entries]");
            return ToolResult.ok(ResultText.fit(out.toString(), maxResultChars));
        } catch (RefusedException e) {
            return ToolResult.error(e.getMessage());
        } catch (IOException e) {
            return ToolResult.error(IoFailures.describe(e, shown));
        }
    }

    private static void walk(Path dir, String prefix, int depthLeft, Listing listing) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) children.add(p);
        }
        children.sort(Comparator.comparing(p -> p.getFileName().toString()));
        for (Path child : children) {
            if (listing.lines.size() >= listing.limit) {
                listing.full = true;
                return;
            }
            BasicFileAttributes attrs =
                    Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            String name = prefix + child.getFileName();
            if (attrs.isSymbolicLink()) {
                listing.lines.add(name + "@");
            } else if (attrs.isDirectory()) {
                listing.lines.add(name + "/");
                if (depthLeft > 1) walk(child, name + "/", depthLeft - 1, listing);
            } else {
                listing.lines.add(name);
            }
        }
    }

    /** The entries gathered so far; {@code full} once the entry cap cut the walk short. */
    private static final class Listing {
        final List<String> lines = new ArrayList<>();
        final int limit;
        boolean full;

        Listing(int limit) {
            this.limit = limit;
        }
    }
}

package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * {@code file_write}: writes or appends UTF-8 text to a file inside the workspace (SPEC AG-5). A whole-file write goes
 * to a temporary file first and is moved into place, so a reader never sees half a file.
 */
final class FileWriteTool extends BuiltinTool {
    public static final String NAME = "file_write";

    public FileWriteTool() {
        super(
                NAME,
                "Write a UTF-8 text file in the workspace, replacing it, or appending with append=true.",
                ArgumentSchema.object()
                        .string(
                                "path",
                                "File path, relative to the workspace; missing parent directories are created",
                                true)
                        .string("content", "The text to write (UTF-8)", true)
                        .bool("append", "Append to the end of the file instead of replacing it (default false)"));
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        String shown = "?";
        try {
            ToolArguments args = ToolArguments.of(arguments);
            shown = args.requiredString("path");
            String content = args.requiredString("content");
            boolean append = args.optionalBoolean("append", false);
            Files.createDirectories(context.workspace());
            Path target = WorkspacePaths.resolve(context.workspace(), shown);
            if (Files.isDirectory(target)) return ToolResult.error(shown + " is a directory");
            // an existing link inside the workspace is written through, at the real place resolve() checked
            Path dest = Files.exists(target) ? target.toRealPath() : target;
            Files.createDirectories(dest.getParent());
            byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
            if (append) {
                Files.write(
                        dest,
                        bytes,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND,
                        StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS);
                return ToolResult.ok("appended " + bytes.length + " bytes to " + shown);
            }
            replace(dest, bytes);
            return ToolResult.ok("wrote " + bytes.length + " bytes to " + shown);
        } catch (RefusedException e) {
            return ToolResult.error(e.getMessage());
        } catch (IOException e) {
            return ToolResult.error(IoFailures.describe(e, shown));
        }
    }

    private static void replace(Path dest, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(dest.getParent(), "." + dest.getFileName() + ".", ".tmp");
        boolean moved = false;
        try {
            Files.write(tmp, bytes, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            keepPermissions(dest, tmp);
            try {
                Files.move(tmp, dest, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dest, StandardCopyOption.REPLACE_EXISTING);
            }
            moved = true;
        } finally {
            if (!moved) Files.deleteIfExists(tmp);
        }
    }

    /** A replaced file keeps its mode; a new file gets the usual 0644 instead of the temp file's 0600. */
    private static void keepPermissions(Path dest, Path tmp) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        if (view == null) return;
        Set<PosixFilePermission> mode = Files.exists(dest)
                ? Files.getPosixFilePermissions(dest)
                : java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--");
        view.setPermissions(mode);
    }
}

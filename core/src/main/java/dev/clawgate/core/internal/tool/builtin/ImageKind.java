package dev.clawgate.core.internal.tool.builtin;

import java.nio.file.Path;
import java.util.Locale;

/** Image formats a vision model can take, recognised by file name and confirmed by the leading bytes. */
enum ImageKind {
    PNG,
    JPEG,
    GIF,
    WEBP,
    BMP;

    /** The kind of image the file is, or null when the name or the bytes say it is not one. */
    static ImageKind of(Path file, byte[] head) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1);
        ImageKind kind = switch (ext) {
            case "png" -> PNG;
            case "jpg", "jpeg" -> JPEG;
            case "gif" -> GIF;
            case "webp" -> WEBP;
            case "bmp" -> BMP;
            default -> null;
        };
        return kind != null && kind.matches(head) ? kind : null;
    }

    private boolean matches(byte[] h) {
        return switch (this) {
            case PNG -> startsWith(h, 0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
            case JPEG -> startsWith(h, 0, 0xFF, 0xD8, 0xFF);
            case GIF -> startsWith(h, 0, 'G', 'I', 'F', '8');
            case WEBP -> startsWith(h, 0, 'R', 'I', 'F', 'F') && startsWith(h, 8, 'W', 'E', 'B', 'P');
            case BMP -> startsWith(h, 0, 'B', 'M');
        };
    }

    private static boolean startsWith(byte[] h, int at, int... magic) {
        if (h.length < at + magic.length) return false;
        for (int i = 0; i < magic.length; i++) {
            if ((h[at + i] & 0xFF) != magic[i]) return false;
        }
        return true;
    }
}

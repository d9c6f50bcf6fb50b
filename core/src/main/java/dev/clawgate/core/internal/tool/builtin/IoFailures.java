package dev.clawgate.core.internal.tool.builtin;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Turns an I/O failure into a short message for the model, naming the path as the model gave it. */
final class IoFailures {
    private IoFailures() {}

    static String describe(IOException e, String shownPath) {
        return switch (e) {
            case NoSuchFileException x -> "no such file or directory: " + shownPath;
            case AccessDeniedException x -> "permission denied: " + shownPath;
            case NotDirectoryException x -> "not a directory: " + shownPath;
            case FileAlreadyExistsException x -> "a file is in the way: " + shownPath;
            case DirectoryNotEmptyException x -> "directory is not empty: " + shownPath;
            case CharacterCodingException x -> "not a UTF-8 text file: " + shownPath;
            default ->
                "I/O error on " + shownPath + ": " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
        };
    }
}

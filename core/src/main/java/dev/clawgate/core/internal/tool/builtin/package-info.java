/**
 * The built-in tools (SPEC AG-5): {@code file_read}, {@code file_write}, {@code file_list}, {@code shell}. Entry point:
 * {@link dev.clawgate.core.internal.tool.builtin.BuiltinTools#create}. They must never touch a path outside the
 * workspace ({@link dev.clawgate.core.internal.tool.builtin.WorkspacePaths}) nor run a program through a shell.
 */
package dev.clawgate.core.internal.tool.builtin;

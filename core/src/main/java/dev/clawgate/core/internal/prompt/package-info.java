/**
 * The system prompt (SPEC SP-1..SP-3, ME-4). Entry points: {@link dev.clawgate.core.prompt.SystemPromptBuilder#build}
 * for one prompt and {@link dev.clawgate.core.prompt.SystemPromptCache#prompt} for a session's turns; the prompt,
 * command and raw bodies of a user message ({@link dev.clawgate.core.internal.prompt.PromptBody}, SPEC MD-2, IN-6). It
 * must never put the memory context into a user message, nor read files outside the workspace.
 */
package dev.clawgate.core.internal.prompt;

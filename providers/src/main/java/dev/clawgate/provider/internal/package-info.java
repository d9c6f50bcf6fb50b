/**
 * What every HTTP model provider shares and no one else may use: the provider base, error wording, the abortable
 * exchange, the SSE reader, retry-after headers, secret redaction, tool-argument parsing.
 */
package dev.clawgate.provider.internal;

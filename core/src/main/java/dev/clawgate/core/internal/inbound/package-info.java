/**
 * Inbound message shaping before a turn runs (SPEC MD-2, MD-3, IN-2, IN-6, HI-1): the session keys under the configured
 * scopes, multi-room channel names and the group history buffer. Pure logic: it never talks to a platform or a model,
 * and reads the store only for buffered group history.
 */
package dev.clawgate.core.internal.inbound;

/**
 * Shaping a reply for a channel (SPEC OUT-1, OUT-2, OUT-3, OUT-13): the {@link dev.clawgate.core.render.Chunker} splits
 * it to the channel's limit without breaking code fences, tables or grapheme clusters; the
 * {@link dev.clawgate.core.render.BlockChunker} does the same while the model still writes;
 * {@link dev.clawgate.core.internal.render.ResponsePrefix} and {@link dev.clawgate.core.render.ReplyToMode} decide the
 * prefix and the threading; {@link dev.clawgate.core.render.MediaMarkers} turns media markers into payloads. Pure
 * logic: it never sends anything, reads no config and touches the file system only to confine marker paths; time comes
 * only from a {@link dev.clawgate.core.run.Scheduler}.
 */
package dev.clawgate.core.internal.render;

/**
 * Access control (SPEC IN-5). Entry point: {@link dev.clawgate.core.internal.access.AccessGate#decide}, called once per
 * inbound message before it may reach a model; pairing codes are drawn by
 * {@link dev.clawgate.core.internal.access.PairingCodes} and kept in the store's
 * {@link dev.clawgate.core.store.PairingBook}. The gate never sends anything itself and never admits a message its
 * channel account's rules do not allow.
 */
package dev.clawgate.core.internal.access;

/**
 * The turn inspector (SPEC OP-8): what each turn did, phase by phase, recorded in memory as the turn runs and written
 * once when it ends ({@link dev.clawgate.core.inspect.TurnBook}).
 */
package dev.clawgate.core.inspect;

/** Fake platform and model servers speaking the real wire protocols on loopback. */
package dev.clawgate.testkit;

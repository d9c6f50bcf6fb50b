/** JMH benchmarks and the end-to-end load driver. */
package dev.clawgate.bench;

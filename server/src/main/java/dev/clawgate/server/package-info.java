/** Config, wiring, the HTTP server and the CLI. */
package dev.clawgate.server;

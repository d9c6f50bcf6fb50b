/** Model providers, one package each. */
package dev.clawgate.provider;

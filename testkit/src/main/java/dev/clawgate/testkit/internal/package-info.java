/** What the fake servers share; not for tests to use directly. */
package dev.clawgate.testkit.internal;

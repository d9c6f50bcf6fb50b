package dev.clawgate.testkit.matrix;

/** A room of the fake homeserver, {@code !opaque:server}; {@code name} is its {@code m.room.name}, or null. */
public record MatrixRoom(String roomId, String name) {}

package dev.clawgate.testkit.whatsapp;

/** A WhatsApp user: {@code waId} is the phone number without {@code +}, {@code name} the profile name. */
public record WhatsAppContact(String waId, String name) {}

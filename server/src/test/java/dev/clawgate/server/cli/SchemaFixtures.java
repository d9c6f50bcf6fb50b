package dev.clawgate.server.cli;

import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Relevance;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.store.internal.Migrations;
import dev.clawgate.store.internal.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes the fixture database of each earlier schema version (SPEC OP-9, issue 26):
 * {@code src/test/resources/dev/clawgate/server/schema/vNNN.db}, the store's scripts 1..N applied and a conversation
 * (and from V006 a memory) written with that version's tables. Run once per new schema version, from server/:
 * {@code java -cp target/test-classes:<test class path> dev.clawgate.server.cli.SchemaFixtures
 * src/test/resources/dev/clawgate/server/schema} and commit the new file; never rewrite an old one (it stands for
 * databases users already have).
 */
public final class SchemaFixtures {
    static final long T0 = 1_790_000_000_000L;
    static final String MEMORY_KEY = "favourite-colour";
    static final String MEMORY = "The owner likes green tea in the morning.";

    private SchemaFixtures() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        int latest = Migrations.schema().latestVersion();
        for (int version = 1; version < latest; version++) {
            Path file = dir.resolve("v%03d.db".formatted(version));
            if (Files.exists(file)) continue;
            write(file, version);
            System.out.println("wrote " + file);
        }
    }

    static void write(Path file, int version) throws Exception {
        try (SqliteDatabase db = SqliteDatabase.open(file)) {
            new Migrations(Migrations.ROOT, Migrations.SCHEMA.subList(0, version)).apply(db);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
                Statement st = c.createStatement()) {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO sessions (id, channel, account, chat_type, "
                    + "reply_target, thread_id, sender, created_at, last_activity) "
                    + "VALUES (1, 'telegram', 'main', ?, '42', '', 'ann', ?, ?)")) {
                s.setString(1, ChatType.DIRECT.wireName());
                s.setLong(2, T0);
                s.setLong(3, T0);
                s.execute();
            }
            st.execute("INSERT INTO transcript (session_id, role, content, inbox_id, created_at) VALUES "
                    + "(1, 'user', 'hello from schema " + version + "', 1, " + T0 + "), "
                    + "(1, 'assistant', 'hi ann (schema " + version + ")', 1, " + (T0 + 1) + ")");
            if (version >= 6) {
                List<String> terms = Relevance.indexTerms(MEMORY_KEY, MEMORY, "core");
                try (PreparedStatement m = c.prepareStatement("INSERT INTO memories (id, scope, mkey, content, "
                        + "category, content_hash, terms, term_count, created_at, updated_at) "
                        + "VALUES (1, ?, ?, ?, 'core', ?, ?, ?, ?, ?)")) {
                    m.setString(1, MemoryScope.global().id());
                    m.setString(2, MEMORY_KEY);
                    m.setString(3, MEMORY);
                    m.setString(
                            4,
                            HexFormat.of()
                                    .formatHex(MessageDigest.getInstance("SHA-256")
                                            .digest(MEMORY.getBytes(StandardCharsets.UTF_8))));
                    m.setString(5, String.join(" ", terms));
                    m.setInt(6, terms.size());
                    m.setLong(7, T0);
                    m.setLong(8, T0);
                    m.execute();
                }
                // V006..V009 index the bare terms; from V010 each term carries its scope's number (ScopedTerms)
                String indexed = String.join(" ", terms);
                if (version >= 10) {
                    st.execute("INSERT INTO memory_scopes (id, scope) VALUES (1, '"
                            + MemoryScope.global().id() + "')");
                    indexed = String.join(" ", terms.stream().map(t -> "1_" + t).toList());
                }
                try (PreparedStatement f = c.prepareStatement("INSERT INTO memory_fts (rowid, terms) VALUES (1, ?)")) {
                    f.setString(1, indexed);
                    f.execute();
                }
            }
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            st.execute("PRAGMA journal_mode = DELETE");
            st.execute("VACUUM");
        }
    }
}

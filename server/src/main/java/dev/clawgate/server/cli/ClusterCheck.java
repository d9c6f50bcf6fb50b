package dev.clawgate.server.cli;

import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.Store;
import dev.clawgate.server.config.Deployment;
import dev.clawgate.store.Stores;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * {@code doctor}'s check of a PostgreSQL store (SPEC OP-2, OP-4): the connection, the schema version, and the cluster's
 * nodes. The URL is shown with its password replaced.
 */
final class ClusterCheck {
    private final Deployment where;
    private final Consumer<String> ok;
    private final BiConsumer<String, String> problem;

    ClusterCheck(Deployment where, Consumer<String> ok, BiConsumer<String, String> problem) {
        this.where = where;
        this.ok = ok;
        this.problem = problem;
    }

    void run() {
        String url = where.store().redactedUrl();
        // opening applies pending migrations: the gateway would do the same at start
        try (Store store =
                Stores.openPostgres(where.store().url(), 1, where.store().connectTimeout(), "")) {
            if (!store.healthy()) {
                problem.accept("store " + url + " does not answer", "check that PostgreSQL runs and accepts this user");
                return;
            }
            ok.accept("store " + url + " answers; schema at version " + Stores.schemaVersion());
        } catch (RuntimeException e) {
            problem.accept(
                    "store " + url + ": " + e.getMessage(),
                    "check store.url (host, port, database, user, password) and that PostgreSQL accepts connections");
            return;
        }
        try (ClusterBook book = Stores.openCluster(
                where.store().url(),
                "doctor",
                where.cluster().leaseTtl(),
                where.store().connectTimeout())) {
            long alive = book.nodes().stream().filter(ClusterBook.Node::alive).count();
            ok.accept("cluster: " + alive + " node" + (alive == 1 ? "" : "s") + " alive (see 'clawgate cluster');"
                    + " this node would join as " + where.cluster().nodeId());
        } catch (RuntimeException e) {
            problem.accept("cluster view: " + e.getMessage(), "check the PostgreSQL user's rights on the schema");
        }
    }
}

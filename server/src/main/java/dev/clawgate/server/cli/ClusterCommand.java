package dev.clawgate.server.cli;

import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.server.config.Deployment;
import dev.clawgate.store.Stores;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code clawgate cluster}: the cluster's nodes, their state, roles and heartbeats (SPEC OP-2, OP-4). */
@Command(name = "cluster", description = "List the cluster's nodes, their roles and heartbeats (PostgreSQL store).")
final class ClusterCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        config.load();
        Deployment where = config.deployment();
        if (!where.clustered()) {
            out.println("Not in cluster mode: store.url is not PostgreSQL (one node, SQLite).");
            return Main.OK;
        }
        // open the store first: it applies the schema the cluster tables live in
        Stores.openPostgres(where.store().url(), 1, where.store().connectTimeout(), "")
                .close();
        try (ClusterBook book = Stores.openCluster(
                where.store().url(),
                "cli",
                where.cluster().leaseTtl(),
                where.store().connectTimeout())) {
            var nodes = book.nodes();
            if (nodes.isEmpty()) out.println("No node has joined yet.");
            for (ClusterBook.Node n : nodes) {
                out.printf(
                        "%-30s %-5s heartbeat %6.1fs ago  %-24s bind %s  started %s%n",
                        n.nodeId(),
                        n.state(),
                        n.heartbeatAge().toMillis() / 1000.0,
                        n.roles().isEmpty() ? "-" : n.roles(),
                        n.bind(),
                        n.startedAt());
            }
        }
        out.flush();
        return Main.OK;
    }
}

package dev.clawgate.server.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.server.Gateway;
import dev.clawgate.server.GatewayOptions;
import dev.clawgate.server.channel.TerminalChannel;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code clawgate chat}: a conversation in this terminal (SPEC CH-1). With input piped in, one message per line; at the
 * end of input it waits for the last reply, then exits.
 */
@Command(name = "chat", description = "Chat with the agent in this terminal.")
final class ChatCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @Override
    public Integer call() throws Exception {
        ClawgateConfig cfg = config.load();
        // SPEC OP-9: this gateway's data is not restored over while it runs (see RunCommand)
        // the conversation owns the console: only warnings and errors go to stderr
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        boolean interactive = isTerminal();
        TerminalChannel terminal =
                new TerminalChannel(System.in, System.out, interactive, System.getProperty("user.name", "user"));
        try (DataDirLock held = DataDirLock.gateway(cfg.gateway().dataDir());
                Gateway gateway =
                        Gateway.start(cfg, GatewayOptions.with(terminal).withConfigFile(config.path()))) {
            terminal.awaitFinished();
        }
        return Main.OK;
    }

    /** JDK 22+ returns a Console even for piped input and says so with isTerminal(); older JDKs return null. */
    static boolean isTerminal() {
        java.io.Console c = System.console();
        if (c == null) return false;
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}

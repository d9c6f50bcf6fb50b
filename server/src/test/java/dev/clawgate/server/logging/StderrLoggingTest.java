package dev.clawgate.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StderrLoggingTest {
    @AfterEach
    void clearProperties() {
        System.clearProperty("clawgate.log.level");
        System.clearProperty("logback.configurationFile");
    }

    @Test
    void logsToStderrAtInfoWithTheHttpLibrariesAtWarn() {
        // SPEC OP-5: one line per event on stderr (stdout belongs to the terminal chat), the gateway's phases at INFO
        LoggerContext context = new LoggerContext();
        assertThat(new StderrLogging().configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(root.getAppender("STDERR"))
                .isInstanceOfSatisfying(
                        ConsoleAppender.class, a -> assertThat(a.getTarget()).isEqualTo("System.err"));
        assertThat(context.getLogger("org.eclipse.jetty.server").getEffectiveLevel())
                .isEqualTo(Level.WARN);
        assertThat(context.getLogger("com.zaxxer.hikari").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("dev.clawgate.server.Gateway").getEffectiveLevel())
                .isEqualTo(Level.INFO);
    }

    @Test
    void theRootLevelComesFromTheSystemProperty() {
        // SPEC OP-5
        System.setProperty("clawgate.log.level", "WARN");
        LoggerContext context = new LoggerContext();
        new StderrLogging().configure(context);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void anOperatorsConfigurationFileWins() {
        // SPEC OP-5: an operator's own logback configuration replaces the built-in one
        System.setProperty("logback.configurationFile", "/etc/clawgate/logback.xml");
        LoggerContext context = new LoggerContext();
        assertThat(new StderrLogging().configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR"))
                .isNull();
    }

    @Test
    void logbackFindsItThroughServiceLoader() {
        // SPEC OP-5
        assertThat(ServiceLoader.load(ch.qos.logback.classic.spi.Configurator.class).stream()
                        .<Class<?>>map(p -> p.type()))
                .contains(StderrLogging.class);
    }
}

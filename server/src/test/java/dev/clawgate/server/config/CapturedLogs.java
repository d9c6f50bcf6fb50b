package dev.clawgate.server.config;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects what the config package ({@link ConfigLoader} and the sections it reads with) logs while open. */
final class CapturedLogs implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger(ConfigLoader.class.getPackageName());
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    CapturedLogs() {
        appender.start();
        logger.addAppender(appender);
    }

    /** Each event as "LEVEL message", formatted. */
    List<String> lines() {
        return appender.list.stream()
                .map(e -> e.getLevel() + " " + e.getFormattedMessage())
                .toList();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}

package dev.clawgate.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Every line any logger writes while open, with its stack trace, as the console would show it: for scanning. */
final class CapturedAppLogs implements AutoCloseable {
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Level before = root.getLevel();

    CapturedAppLogs() {
        appender.start();
        root.addAppender(appender);
        // DEBUG is recorded too, so a test can tell what is kept below INFO
        root.setLevel(Level.DEBUG);
    }

    /** Lines at {@code level} or above: the formatted message, then the exception and its causes. */
    List<String> atLeast(Level level) {
        return List.copyOf(appender.list).stream()
                .filter(e -> e.getLevel().isGreaterOrEqual(level))
                .map(CapturedAppLogs::render)
                .toList();
    }

    private static String render(ILoggingEvent e) {
        IThrowableProxy t = e.getThrowableProxy();
        return e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage()
                + (t == null ? "" : "\n" + ThrowableProxyUtil.asString(t));
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        root.setLevel(before);
    }
}

package dev.clawgate.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The gateway's logging, set up in code: one line per event on stderr (stdout belongs to the terminal chat), the root
 * level from {@code -Dclawgate.log.level} (default INFO), Jetty, Javalin and HikariCP at WARN.
 *
 * <p>Written by hand instead of a {@code logback.xml} because reading XML pulls in logback's configuration model and
 * the JDK's XML parser, about 600 classes and a quarter of the start time. A {@code -Dlogback.configurationFile=...}
 * given by the operator still wins: this configurator then steps aside and logback reads that file.
 */
public final class StderrLogging extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        Encoder<ILoggingEvent> encoder = text(context);
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(System.getProperty("clawgate.log.level"), Level.INFO));
        root.addAppender(stderr);
        for (String quiet : new String[] {"org.eclipse.jetty", "io.javalin", "com.zaxxer.hikari", "ai.djl"}) {
            context.getLogger(quiet).setLevel(Level.WARN);
        }
        // the local embedding model's tokenizer library looks for a GPU at each start and warns that CUDA is missing;
        // the model runs on the CPU by design, so that is no fault to report
        context.getLogger("ai.djl.util.cuda").setLevel(Level.ERROR);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /**
     * Switches the stderr lines to {@code format} ({@code logging.format}, read once the config is loaded). JSON is
     * Logback's {@link JsonEncoder}, one object per line: timestamp (epoch ms), level, threadName, loggerName, mdc
     * (session_key, inbox_id, turn_id where known), formattedMessage and any throwable. With the operator's own
     * {@code logback.configurationFile} there is no STDERR appender of ours and this changes nothing.
     */
    public static void use(LogFormat format) {
        if (!(org.slf4j.LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) return;
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        if (!(root.getAppender("STDERR") instanceof ConsoleAppender<ILoggingEvent> stderr)) return;
        Encoder<ILoggingEvent> encoder = format == LogFormat.JSON ? json(context) : text(context);
        stderr.stop();
        stderr.setEncoder(encoder);
        stderr.start();
    }

    private static Encoder<ILoggingEvent> text(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        return encoder;
    }

    private static Encoder<ILoggingEvent> json(LoggerContext context) {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        // what a collector needs per line; the context and sequence fields would repeat the same values on every line
        encoder.setWithContext(false);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.setWithMessage(false);
        encoder.setWithFormattedMessage(true);
        encoder.setWithArguments(false);
        encoder.start();
        return encoder;
    }
}

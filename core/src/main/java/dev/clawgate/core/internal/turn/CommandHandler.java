package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.command.RuntimeCommand;
import dev.clawgate.core.internal.run.SessionStatus;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runtime commands, answered without a model call (SPEC RT-1). {@code /stop} is the dispatcher's (SPEC DI-5); one that
 * reaches a turn found nothing to stop.
 */
final class CommandHandler {
    static final String SETTING_MODEL = "model";
    static final String SETTING_REASONING = "reasoning";

    private final Store store;
    private final ProviderDirectory providers;
    private final Function<SessionKey, SessionStatus> sessionStatus;
    private final Clock clock;
    private final Runnable onNewSession;

    CommandHandler(
            Store store,
            ProviderDirectory providers,
            Function<SessionKey, SessionStatus> sessionStatus,
            Clock clock,
            Runnable onNewSession) {
        this.store = store;
        this.providers = providers;
        this.sessionStatus = sessionStatus;
        this.clock = clock;
        this.onNewSession = onNewSession;
    }

    String handle(RuntimeCommand command, SessionKey session, ClawgateConfig config, CancelToken cancel) {
        return switch (command) {
            case RuntimeCommand.New n -> {
                store.transcripts().clear(session);
                onNewSession.run();
                yield "Started a new conversation.";
            }
            case RuntimeCommand.Model m -> setModel(m.name(), session);
            case RuntimeCommand.Models m -> listModels(m.provider(), config, cancel);
            case RuntimeCommand.Stop s -> "Nothing is running.";
            case RuntimeCommand.Status s -> status(session, config);
            case RuntimeCommand.Queue q -> queue(q.args(), session);
            case RuntimeCommand.Reasoning r -> reasoning(r.mode(), session);
            case RuntimeCommand.Invalid i -> "Usage: " + i.usage();
        };
    }

    private String setModel(String name, SessionKey session) {
        if (name == null || name.isBlank()) {
            return "Usage: /model NAME (or /model PROVIDER:NAME). Current: "
                    + currentModel(session).orElse("the default");
        }
        ModelSelector.Override o = ModelSelector.parseOverride(name.trim(), providers);
        String value = o.provider() == null ? o.model() : o.provider() + ":" + o.model();
        store.transcripts().putSetting(session, SETTING_MODEL, value);
        return "Model for this conversation: " + (o.provider() == null ? "" : o.provider() + ":") + o.model() + ".";
    }

    private Optional<String> currentModel(SessionKey session) {
        return store.transcripts().setting(session, SETTING_MODEL);
    }

    private String listModels(String providerName, ClawgateConfig config, CancelToken cancel) {
        List<String> names = providerName == null || providerName.isBlank() ? providers.names() : List.of(providerName);
        if (names.isEmpty()) return ModelSelector.NO_PROVIDER;
        List<String> lines = new ArrayList<>();
        for (String n : names) {
            Optional<Provider> p = providers.find(n);
            if (p.isEmpty()) {
                lines.add(n + ": not configured");
                continue;
            }
            try {
                List<String> models = p.get().listModels(cancel);
                lines.add(n + ": " + (models.isEmpty() ? "(the provider lists none)" : String.join(", ", models)));
            } catch (ProviderException e) {
                lines.add(n + ": could not list models (" + e.kind().name().toLowerCase(java.util.Locale.ROOT) + ")");
            }
        }
        return String.join("\n", lines);
    }

    private String status(SessionKey session, ClawgateConfig config) {
        String model = currentModel(session).orElseGet(() -> {
            String p = config.agent().provider() != null
                    ? config.agent().provider()
                    : providers.names().isEmpty() ? "(none)" : providers.names().get(0);
            String m = config.agent().model() != null
                    ? config.agent().model()
                    : providers.settings(p).map(s -> s.defaultModel()).orElse("(none)");
            return p + ":" + m;
        });
        String queue = store.transcripts()
                .setting(session, QueueDirective.MODE)
                .orElse(config.queue().mode().name().toLowerCase(java.util.Locale.ROOT));
        SessionStatus now = sessionStatus.apply(session);
        return "Session: " + session.display() + "\nModel: " + model + "\nQueue mode: " + queue + "\nQueued messages: "
                + now.queued() + running(now);
    }

    /** SPEC RT-1, RP-5: what the active run does, so a tool that never ends on its own is seen (/stop ends it). */
    private String running(SessionStatus now) {
        if (!now.running() || now.runStartedAt() == null) return "";
        String line = "\nRunning: for " + elapsed(now.runStartedAt());
        if (now.tool() == null) return line;
        return line + "\nTool running: " + now.tool().name() + " (for "
                + elapsed(now.tool().since()) + "; /stop ends it)";
    }

    private String elapsed(Instant since) {
        long s = Math.max(0, Duration.between(since, clock.instant()).toSeconds());
        return s < 60 ? s + " s" : s / 60 + " min " + s % 60 + " s";
    }

    private String queue(String args, SessionKey session) {
        QueueDirective.Result r = QueueDirective.parse(args);
        r.settings().forEach((k, v) -> store.transcripts().putSetting(session, k, v));
        return r.reply();
    }

    private String reasoning(String mode, SessionKey session) {
        String m = mode == null ? "" : mode.trim().toLowerCase(java.util.Locale.ROOT);
        if (!m.equals("on") && !m.equals("off") && !m.equals("stream")) return "Usage: /reasoning on|off|stream.";
        store.transcripts().putSetting(session, SETTING_REASONING, m);
        return "Reasoning visibility: " + m + ".";
    }
}

package dev.clawgate.core.turn;

import dev.clawgate.core.command.RuntimeCommand;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runtime commands, answered without a model call (SPEC RT-1). {@code /stop} is the dispatcher's
 * (SPEC DI-5); one that reaches a turn found nothing to stop.
 */
final class CommandHandler {
    static final String SETTING_MODEL = "model";
    static final String SETTING_REASONING = "reasoning";


    private final Store store;
    private final ProviderDirectory providers;
    private final Function<SessionKey, Integer> queueDepth;
    private final Runnable onNewSession;

    CommandHandler(Store store, ProviderDirectory providers, Function<SessionKey, Integer> queueDepth, Runnable onNewSession) {
        this.store = store;
        this.providers = providers;
        this.queueDepth = queueDepth;
        this.onNewSession = onNewSession;
    }

    String handle(RuntimeCommand command, SessionKey session, ClawgateConfig config, CancelToken cancel) {
        return switch (command) {
            case RuntimeCommand.New n -> {
                store.clearTranscript(session);
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
            return "Usage: /model NAME (or /model PROVIDER:NAME). Current: " + currentModel(session).orElse("the default");
        }
        ModelSelector.Override o = ModelSelector.parseOverride(name.trim(), providers);
        store.putSessionSetting(session, SETTING_MODEL, o.provider() == null ? o.model() : o.provider() + ":" + o.model());
        return "Model for this conversation: " + (o.provider() == null ? "" : o.provider() + ":") + o.model() + ".";
    }

    private Optional<String> currentModel(SessionKey session) {
        return store.sessionSetting(session, SETTING_MODEL);
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
            String p = config.agent().provider() != null ? config.agent().provider()
                    : providers.names().isEmpty() ? "(none)" : providers.names().get(0);
            String m = config.agent().model() != null ? config.agent().model()
                    : providers.settings(p).map(s -> s.defaultModel()).orElse("(none)");
            return p + ":" + m;
        });
        String queue = store.sessionSetting(session, QueueDirective.MODE).orElse(config.queue().mode().name().toLowerCase(java.util.Locale.ROOT));
        return "Session: " + session.display() + "\nModel: " + model + "\nQueue mode: " + queue
                + "\nQueued messages: " + queueDepth.apply(session);
    }

    private String queue(String args, SessionKey session) {
        QueueDirective.Result r = QueueDirective.parse(args);
        r.settings().forEach((k, v) -> store.putSessionSetting(session, k, v));
        return r.reply();
    }

    private String reasoning(String mode, SessionKey session) {
        String m = mode == null ? "" : mode.trim().toLowerCase(java.util.Locale.ROOT);
        if (!m.equals("on") && !m.equals("off") && !m.equals("stream")) return "Usage: /reasoning on|off|stream.";
        store.putSessionSetting(session, SETTING_REASONING, m);
        return "Reasoning visibility: " + m + ".";
    }
}

package dev.clawgate.core.config;

import java.util.List;
import java.util.Map;

/**
 * A copy of a {@link ClawgateConfig} with some parts replaced: what its {@code with...} methods build, so adding a part
 * touches one place.
 */
final class ConfigEdit {
    private GatewaySettings gateway;
    private AgentSettings agent;
    private Map<String, ProviderSettings> providers;
    private List<RouteSettings> routes;
    private HistorySettings history;
    private ToolSettings tools;
    private DispatchSettings dispatch;
    private SessionSettings session;
    private InboundSettings inbound;
    private QueueSettings queue;
    private Map<String, ChannelSettings> channels;
    private OutboxSettings outbox;
    private MultimodalSettings multimodal;
    private MemorySettings memory;
    private String responsePrefix;
    private CronSettings cron;
    private McpSettings mcp;
    private InspectorSettings inspector;

    ConfigEdit(ClawgateConfig from) {
        this.gateway = from.gateway();
        this.agent = from.agent();
        this.providers = from.providers();
        this.routes = from.routes();
        this.history = from.history();
        this.tools = from.tools();
        this.dispatch = from.dispatch();
        this.session = from.session();
        this.inbound = from.inbound();
        this.queue = from.queue();
        this.channels = from.channels();
        this.outbox = from.outbox();
        this.multimodal = from.multimodal();
        this.memory = from.memory();
        this.responsePrefix = from.responsePrefix();
        this.cron = from.cron();
        this.mcp = from.mcp();
        this.inspector = from.inspector();
    }

    ConfigEdit gateway(GatewaySettings value) {
        this.gateway = value;
        return this;
    }

    ConfigEdit agent(AgentSettings value) {
        this.agent = value;
        return this;
    }

    ConfigEdit inbound(InboundSettings value) {
        this.inbound = value;
        return this;
    }

    ConfigEdit channels(Map<String, ChannelSettings> value) {
        this.channels = value;
        return this;
    }

    ConfigEdit outbox(OutboxSettings value) {
        this.outbox = value;
        return this;
    }

    ConfigEdit multimodal(MultimodalSettings value) {
        this.multimodal = value;
        return this;
    }

    ConfigEdit memory(MemorySettings value) {
        this.memory = value;
        return this;
    }

    ConfigEdit responsePrefix(String value) {
        this.responsePrefix = value;
        return this;
    }

    ConfigEdit cron(CronSettings value) {
        this.cron = value;
        return this;
    }

    ConfigEdit mcp(McpSettings value) {
        this.mcp = value;
        return this;
    }

    ConfigEdit inspector(InspectorSettings value) {
        this.inspector = value;
        return this;
    }

    ClawgateConfig build() {
        return new ClawgateConfig(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                inbound,
                queue,
                channels,
                outbox,
                multimodal,
                memory,
                responsePrefix,
                cron,
                mcp,
                inspector);
    }
}

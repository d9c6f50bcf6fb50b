package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Unknown keys, wrong types, bad numbers and malformed TOML: one line naming file, key and fix. */
class ConfigErrorsTest extends ConfigFileCase {
    @Test
    void malformedTomlNamesTheLineAndColumn() {
        // SPEC defaults table (a config that cannot be read is a clear error), SPEC RT-3
        assertThat(fixture.error("[gateway]\nbind = \"127.0.0.1:8787\nx = 1\n"))
                .isEqualTo("malformed TOML in " + file
                        + " at line 2, column 23 ('bind = …'): a string is not closed before the end"
                        + " of the line; add its closing quote");
    }

    @Test
    void malformedTomlQuotesTheLineAndSaysWhatIsWrongInPlainWords() {
        // issue 14: not the parser's "Unknown token" alone; a table header is quoted whole (it holds no value)
        assertThat(fixture.error("[agent]\nmodel = gpt-4o\n"))
                .isEqualTo("malformed TOML in " + file
                        + " at line 2, column 9 ('model = …'): the value is not a string, number,"
                        + " boolean, date or array; put text in double quotes, e.g. key = \"text\"");
        assertThat(fixture.error("[gateway\nbind = \"127.0.0.1:1\"\n"))
                .isEqualTo("malformed TOML in " + file
                        + " at line 1, column 9 ('[gateway'): the table header is not closed; end it with ]");
        assertThat(fixture.error("[agent]\nmodel = \"a\"\nmodel = \"b\"\n"))
                .contains("('model = …')", "this key is set twice; keep one");
    }

    @Test
    void malformedTomlDoesNotEchoTheOffendingValue() {
        // SPEC OP-6
        assertThat(fixture.error("[providers.openai]\napi_key = sk-live-abc123\n"))
                .startsWith("malformed TOML in " + file + " at line 2, column")
                .doesNotContain("sk-live", "abc123");
    }

    @Test
    void aNestedUnknownKeySuggestsTheNearestKeyOfItsTable() {
        // SPEC defaults table (unknown key names the nearest known key), SPEC DI-6
        assertThat(fixture.error("[agent]\nmax_tool_iteration = 5\n"))
                .isEqualTo("unknown key 'agent.max_tool_iteration' in " + file
                        + "; did you mean 'agent.max_tool_iterations'?");
    }

    @Test
    void aMisspeltTopLevelTableSuggestsTheTable() {
        // SPEC defaults table, SPEC OP-3
        assertThat(fixture.error("[gatway]\nbind = \"127.0.0.1:1\"\n"))
                .isEqualTo("unknown key 'gatway' in " + file + "; did you mean 'gateway'?");
    }

    @Test
    void aKeyInTheWrongTableSuggestsWhereItBelongs() {
        // SPEC defaults table, SPEC OP-3, DI-3
        assertThat(fixture.error("[agent]\nbind = \"127.0.0.1:1\"\n")).endsWith("did you mean 'gateway.bind'?");
        assertThat(fixture.error("[messages]\nqueue_mode = \"steer\"\n"))
                .endsWith("did you mean 'messages.queue.mode'?");
        assertThat(fixture.error("max_tool_iterations = 3\n")).endsWith("did you mean 'agent.max_tool_iterations'?");
    }

    @Test
    void unknownKeysInsideProvidersAndRoutesNameTheirEntry() {
        // SPEC defaults table, SPEC RT-2
        assertThat(fixture.error("[providers.openai]\napikey = \"x\"\n"))
                .isEqualTo("unknown key 'providers.openai.apikey' in " + file
                        + "; did you mean 'providers.openai.api_key'?");
        assertThat(fixture.error(
                        "[[routes]]\nhint = \"a\"\nkeywords = [\"a\"]\n[[routes]]\nhint = \"b\"\nkeyword = [\"b\"]\n"))
                .isEqualTo("unknown key 'routes[1].keyword' in " + file + "; did you mean 'routes[1].keywords'?");
    }

    @Test
    void anUnknownKeyWithNothingCloseListsTheValidKeysOfItsTable() {
        // SPEC defaults table, SPEC HI-2, HI-4
        // (not 'retention': since [inspector] that has a near match, inspector.retention)
        assertThat(fixture.error("[history]\nwibble = 3\n"))
                .isEqualTo("unknown key 'history.wibble' in " + file
                        + "; valid keys in [history]: max_messages, max_chars");
        assertThat(fixture.error("[agent]\nx = 1\n"))
                .contains("; valid keys in [agent]: provider, model, max_tool_iterations");
        assertThat(fixture.error("[plugins.weather]\ntoken = \"x\"\n"))
                .isEqualTo("unknown key 'plugins' in " + file
                        + "; valid top-level keys: gateway, agent, providers, routes, "
                        + "session, history, memory, tools, messages, inbox, multimodal, outbox, cron, dispatch, "
                        + "logging, inspector, telemetry, store, cluster, "
                        + "channels, mcp");
    }

    @Test
    void caseAndDashSlipsStillFindTheKey() {
        // SPEC defaults table
        assertThat(fixture.error("[agent]\nShow-Tool-Calls = true\n"))
                .endsWith("did you mean 'agent.show_tool_calls'?");
        assertThat(fixture.error("[tools]\nshell_timeout = 3\n")).endsWith("did you mean 'tools.shell_timeout_secs'?");
    }

    @Test
    void aValueOfTheWrongTypeNamesTheExpectedType() {
        // SPEC defaults table, SPEC OP-3, DI-6, HI-4, RT-2
        assertThat(fixture.error("[gateway]\nbind = 8787\n"))
                .isEqualTo("'gateway.bind' in " + file + " must be a string, not an integer");
        assertThat(fixture.error("[agent]\nmax_tool_iterations = \"ten\"\n"))
                .isEqualTo("'agent.max_tool_iterations' in " + file + " must be an integer, not a string");
        assertThat(fixture.error("[agent]\nshow_tool_calls = \"yes\"\n"))
                .isEqualTo("'agent.show_tool_calls' in " + file + " must be true or false, not a string");
        assertThat(fixture.error("[history]\nmax_chars = 1.5\n"))
                .isEqualTo("'history.max_chars' in " + file + " must be an integer, not a decimal number");
        assertThat(fixture.error("[agent]\nfallback = \"a\"\n"))
                .isEqualTo("'agent.fallback' in " + file + " must be a list of strings, not a string");
        assertThat(fixture.error("[[routes]]\nhint = \"a\"\nkeywords = [\"a\", 1]\n"))
                .isEqualTo("'routes[0].keywords[1]' in " + file + " must be a string, not an integer");
    }

    @Test
    void aTableKeyHoldingAValueNamesTheTableShape() {
        // SPEC defaults table, SPEC RT-2
        assertThat(fixture.error("agent = \"x\"\n"))
                .isEqualTo("'agent' in " + file + " must be a table ([agent]), not a string");
        assertThat(fixture.error("[routes]\nhint = \"x\"\n"))
                .isEqualTo("'routes' in " + file + " must be an array of tables ([[routes]]), not a table");
        assertThat(fixture.error("[providers]\nopenai = \"x\"\n"))
                .isEqualTo("'providers.openai' in " + file + " must be a table ([providers.openai]), not a string");
        assertThat(fixture.error("[messages]\nqueue = \"steer\"\n"))
                .isEqualTo("'messages.queue' in " + file + " must be a table ([messages.queue]), not a string");
    }

    @Test
    void aWrongTypeNeverQuotesTheValue() {
        // SPEC OP-6
        assertThat(fixture.error("[gateway]\nauth_token = 98765432\n")).doesNotContain("98765432");
    }

    @Test
    void negativeLimitsAreRejectedWithTheAllowedRange() {
        // SPEC DI-6, HI-2, DI-1, DI-3
        assertThat(fixture.error("[agent]\nmax_tool_iterations = -1\n"))
                .isEqualTo("'agent.max_tool_iterations' in " + file + " must be at least 1, not -1");
        assertThat(fixture.error("[history]\nmax_messages = -5\n"))
                .isEqualTo("'history.max_messages' in " + file + " must be at least 0, not -5");
        assertThat(fixture.error("[dispatch]\nbus_capacity = 0\n"))
                .contains("'dispatch.bus_capacity'", "at least 1, not 0");
        assertThat(fixture.error("[messages.queue]\ncap = 0\n")).contains("'messages.queue.cap'", "at least 1, not 0");
        assertThat(fixture.error("[dispatch]\nmax_in_flight = -2\n"))
                .contains("'dispatch.max_in_flight'", "at least 0");
        assertThat(fixture.error("[tools]\nshell_output_cap = 3000000000\n"))
                .contains("'tools.shell_output_cap'", "at most 2147483647, not 3000000000");
    }

    @Test
    void aBindAddressNeedsAHostAndAPortInRange() {
        // SPEC OP-3
        assertThat(fixture.error("[gateway]\nbind = \"127.0.0.1:70000\"\n"))
                .isEqualTo("'gateway.bind' in " + file + " has port '70000'; use a port from 0 to 65535");
        assertThat(fixture.error("[gateway]\nbind = \"localhost\"\n"))
                .isEqualTo("'gateway.bind' in " + file + " is 'localhost'; write host:port, e.g. 127.0.0.1:8787");
        assertThat(fixture.error("[gateway]\nbind = \"::1:8787\"\n")).contains("write IPv6 hosts in brackets");
        assertThat(fixture.error("[gateway]\nbind = \"127.0.0.1:http\"\n")).contains("has port 'http'");
        assertThat(fixture.load("[gateway]\nbind = \"[::1]:0\"\n").gateway().bind())
                .isEqualTo("[::1]:0");
    }

    @Test
    void aBaseUrlMustBeHttpWithoutQuotingIt() {
        // SPEC SP-3, OP-6
        assertThat(fixture.error("[providers.x]\nbase_url = \"ftp://user:hunter2@host/v1\"\n"))
                .contains("'providers.x.base_url'", "must be an http:// or https:// URL")
                .doesNotContain("hunter2");
        assertThat(fixture.error("[providers.x]\nbase_url = \"127.0.0.1:8080/v1\"\n"))
                .contains("must be an http://");
    }

    @Test
    void emptyValuesWhereANameIsNeededAreRejected() {
        // SPEC OP-3, RT-2
        assertThat(fixture.error("[gateway]\nauth_token = \"\"\n")).contains("'gateway.auth_token'", "is empty");
        assertThat(fixture.error("[agent]\nmodel = \" \"\n")).contains("'agent.model'", "is empty");
        assertThat(fixture.error("[gateway]\ndata_dir = \"\"\n")).contains("'gateway.data_dir'", "must not be empty");
    }

    @Test
    void aProviderNameMustBeAPlainWord() {
        // SPEC RT-1 (/models PROVIDER names it)
        assertThat(fixture.error("[providers.\"my provider\"]\n"))
                .contains("[providers.my provider]", "must use only letters, digits, - and _");
    }
}

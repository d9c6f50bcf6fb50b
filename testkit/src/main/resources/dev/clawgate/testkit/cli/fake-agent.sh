#!/usr/bin/env bash
# A stand-in for a coding-agent CLI run as "kiro-cli chat --no-interactive" is (seed 001 §6.2): it
# reads the whole prompt from stdin (or from the file after --prompt-file), then acts on the user's
# newest message, the text after the last "[User]" line:
#   "please sleep"     starts a child, ignores SIGTERM (as does the child), and never answers
#   "use a tool"       answers with a <tool_call> tag; once the prompt holds [Tool results], uses them
#   "json please"      answers in the JSON line protocol, then lingers
#   "fail please"      writes to stderr and exits 3
#   "custom overflow"  writes its own overflow wording to stderr and exits 1
#   anything else      "You said: <message>"
# A conversation (the text after "## Conversation") longer than FAKE_AGENT_MAX_PROMPT characters gets
# the seed's overflow notice on stdout. FAKE_AGENT_TOOL_CALL replaces the tool call's JSON.
set -u
if [ "${1:-}" = "--prompt-file" ]; then
  prompt=$(cat "$2")
  [ -n "${FAKE_AGENT_PATH_OUT:-}" ] && printf '%s' "$2" > "$FAKE_AGENT_PATH_OUT"
else
  prompt=$(cat)
fi
[ -n "${FAKE_AGENT_PROMPT_OUT:-}" ] && printf '%s' "$prompt" > "$FAKE_AGENT_PROMPT_OUT"
[ -n "${FAKE_AGENT_ENV_OUT:-}" ] && env > "$FAKE_AGENT_ENV_OUT"
echo "fake-agent: read ${#prompt} characters" >&2

last=$(printf '%s\n' "$prompt" | awk '/^\[User\]$/ { buf = ""; grab = 1; next } /^\[Assistant\]$|^\[Tool result: / { grab = 0 } grab { buf = buf $0 "\n" } END { printf "%s", buf }')

conversation=${prompt#*"## Conversation"}
if [ "${#conversation}" -gt "${FAKE_AGENT_MAX_PROMPT:-100000000}" ]; then
  echo "The context window has overflowed, summarizing..."
  exit 1
fi

case "$last" in
  *"please sleep"*)
    ( trap '' TERM; while true; do sleep 1; done ) &
    child=$!
    trap '' TERM
    echo "$child" > "$FAKE_AGENT_PID_FILE.child"
    echo "$$" > "$FAKE_AGENT_PID_FILE"
    echo "Working on it..."
    while true; do sleep 1; done
    ;;
  *"[Tool results]"*)
    echo "The tool said: $(printf '%s' "$last" | grep -o 'pong[^ ]*' | head -1)"
    ;;
  *"use a tool"*)
    echo "Let me check."
    call=${FAKE_AGENT_TOOL_CALL:-}
    [ -z "$call" ] && call='{"name": "echo_tool", "arguments": {"text": "ping"}}'
    echo "<tool_call>$call</tool_call>"
    ;;
  *"json please"*)
    echo '{"type":"delta","text":"Hello"}'
    echo '{"type":"delta","text":" world"}'
    echo '{"type":"done"}'
    # and lingers, as some programs do after their last event
    sleep 600
    ;;
  *"fail please"*)
    echo "fatal: the session token=hunter2secret was refused by the upstream" >&2
    exit 3
    ;;
  *"custom overflow"*)
    echo "Error: context budget exhausted (412000 of 400000 tokens)" >&2
    exit 1
    ;;
  *)
    printf 'You said: %s\n' "$last"
    ;;
esac

#!/usr/bin/env bash
# The end-to-end load runs of bench/RESULTS.md, in one go: builds the gateway jar and the bench
# classes, runs each configuration through dev.clawgate.bench.load.LoadDriver (the gateway as its
# own process, the fake Telegram Bot API and fake OpenAI server in the driver's JVM, all over
# loopback HTTP), and prints one Markdown table. Full reports: bench/target/load-results/runs.log.
#
#   bench/run-load.sh            # the issue's runs (about 6 minutes on 2 quiet cores)
#   bench/run-load.sh soak       # the 100,000-message soak (SPEC OP-7) at -Xmx256m, default config
#   bench/run-load.sh kill       # only the kill test (SPEC OUT-7, OUT-12), about 1 minute
#   JAR=/path/clawgate.jar bench/run-load.sh   # another build of the gateway
#
# Every run checks that each message got exactly one reply (the kill run: none got two, and each
# without one is listed unknown_after_send); the script stops at the first that did not (exit 1). Per-chat pacing is off in every run: see GatewayConfig (stream_mode = "off",
# no block streaming, no human_delay, no ack reactions).
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
if [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; fi
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

./mvnw -o -q -B -pl server,bench -am package -DskipTests -Dpit.skip=true
# the gateway is started by ./clawgate, as an operator starts it (server/jvm.options, the start-up cache);
# JAR=/path/clawgate.jar runs that jar with java -jar and server/jvm.options instead
launch=(--launcher ./clawgate)
if [ -n "${JAR:-}" ]; then launch=(--jar "$JAR"); fi
# the launcher trains its start-up cache once per build: do it now, not inside the first run's start time
./clawgate --version >/dev/null
cp="bench/target/classes:$(cat bench/target/classpath.txt)"
out=bench/target/load-results
mkdir -p "$out"
md="$out/results-$(date +%Y%m%d-%H%M%S).md"
printf '[memory]\nauto_save = false\n' > "$out/no-auto-save.toml"
# the gateway runs with server/jvm.options, as ./clawgate runs it; the idle RSS is read after 10 s of idling
idle=(--idle-ms 10000)

drive() {
  echo "== $(date +%T) load average $(cut -d' ' -f1-3 /proc/loadavg): LoadDriver $*" | tee -a "$out/runs.log"
  "$java" -Xmx1g --enable-native-access=ALL-UNNAMED -cp "$cp" dev.clawgate.bench.load.LoadDriver "${launch[@]}" --results-md "$md" \
      --results-json "$out/results.jsonl" "$@" | tee -a "$out/runs.log"
}

if [ "${1:-}" = "soak" ]; then
  # SPEC OP-7: live heap after a full GC and RSS every 10,000 replies, class growth first sample to end
  drive --label "soak 100k, -Xmx256m, defaults" --messages 100000 --users 200 --warmup 5000 \
      --sample-every 10000 --histogram --jvm-arg=-Xmx256m
  cat "$md"
  exit 0
fi

# SPEC OUT-7, OUT-12: the gateway SIGKILLed 5 times mid-run and restarted on the same data; passes when no message is
# answered twice and every unanswered one is listed unknown_after_send (the report names the seed to replay it)
kill_run() {
  drive --label "gateway, closed, 5 kills" --messages 2000 --users 200 --warmup 1000 --kills 5
}
if [ "${1:-}" = "kill" ]; then
  kill_run
  cat "$md"
  exit 0
fi

# the ceiling: the echo bot on the same driver and fake
drive --label "echo bot (ceiling), closed" --bot echo --messages 2000 --users 200 --warmup 2000 "${idle[@]}"
# the gateway as ./clawgate runs it; with memory on, recall slows as memories pile up (RESULTS.md),
# so the default run warms up with 2,000 messages and the auto-save-off run with 10,000
drive --label "gateway, closed, defaults" --messages 2000 --users 200 --warmup 2000 "${idle[@]}"
drive --label "gateway, closed, memory auto-save off" --messages 2000 --users 200 --warmup 10000 \
    --extra-toml "$out/no-auto-save.toml"
# open loop at 100 messages/s: latency with headroom, the echo bot beside it
drive --label "echo bot (ceiling), open 100/s" --bot echo --rate 100 --messages 2000 --users 200 --warmup 2000
drive --label "gateway, open 100/s, defaults" --rate 100 --messages 2000 --users 200 --warmup 2000
drive --label "gateway, open 100/s, memory auto-save off" --rate 100 --messages 2000 --users 200 --warmup 10000 \
    --extra-toml "$out/no-auto-save.toml"
# start and footprint without the start-up cache, and with neither the launcher's options nor the cache (java -jar)
CLAWGATE_AOT=off drive --label "gateway, no start-up cache" --messages 2000 --users 200 --warmup 2000 "${idle[@]}"
drive --label "gateway, java -jar, JVM defaults" --jar server/target/clawgate.jar --launcher-options none \
    --messages 2000 --users 200 --warmup 2000 "${idle[@]}"
kill_run

echo
cat "$md"

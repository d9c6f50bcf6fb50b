#!/usr/bin/env bash
# Runs the attack suite that SECURITY.md counts, and prints each test with its result, grouped by
# attack class, from the surefire reports. Usage: scripts/attack-suite.sh [--no-run]
# --no-run only summarises the reports of the last run. Needs bubblewrap (the sandbox tests run it).
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"

# attack class | test classes (simple names), as SECURITY.md lists them
CLASSES=(
  "workspace escapes (shell)|ShellEscapeTest ToolAttackEndToEndTest"
  "workspace escapes (file tools)|WorkspacePathsTest FileReadToolTest FileWriteToolTest FileListToolTest ToolSafetyEndToEndTest"
  "code inside the sandbox|ShellSandboxProofTest"
  "SSRF|PublicAddressesTest PublicWebTest WebFetchToolTest ImageInlinerTest PinnedFetchTest"
  "HTTP callers (Origin, Host, content type, token, public bind)|HttpCallerAttackTest RunCommandTest"
  "HTTP bounds (bodies, slow clients, connections, sockets)|HttpBoundsAttackTest MessageLimitTest"
  "poison messages|TelegramPoisonUpdateTest UpdateReaderPropertyTest WebhookReceiverTest WebhookPayloadPropertyTest TelegramPoisonEndToEndTest"
  "header injection|TelegramHeaderInjectionTest"
  "secret leaks|SecretLeakEndToEndTest LogPrivacyEndToEndTest"
)

if [[ "${1:-}" != "--no-run" ]]; then
  tests=$(for c in "${CLASSES[@]}"; do echo "${c#*|}"; done | tr ' \n' ',,' | sed 's/,*$//')
  log="${TMPDIR:-/tmp}/clawgate-attack-suite.log"
  echo "running the attack suite (Maven output in $log)" >&2
  ./mvnw -B -q test -pl core,server,channels/telegram,channels/webhook -am -Dtest="$tests" \
    -Dsurefire.failIfNoSpecifiedTests=false -Dpit.skip=true -Djacoco.skip=true >"$log" 2>&1 \
    || echo "some tests failed: see below and $log" >&2
fi

total=0
failed=0
for c in "${CLASSES[@]}"; do
  echo "== ${c%%|*}"
  for t in ${c#*|}; do
    report=$(ls */target/surefire-reports/TEST-*."$t".xml channels/*/target/surefire-reports/TEST-*."$t".xml 2>/dev/null | head -1 || true)
    if [[ -z "$report" ]]; then echo "   $t: no report (not run)"; continue; fi
    # one line per test case: name, and FAILED when it has a failure or error child
    python3 - "$report" <<'PY'
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter('testcase'):
    bad = any(ch.tag in ('failure', 'error') for ch in case)
    skipped = any(ch.tag == 'skipped' for ch in case)
    cls = case.get('classname').rsplit('.', 1)[-1]
    print(f"   {'FAILED ' if bad else 'skipped ' if skipped else 'ok     '} {cls}#{case.get('name')}")
PY
  done
done | tee /dev/stderr | awk '/^   ok/{ok++} /^   FAILED/{bad++} END{printf "\n%d attack tests passed, %d failed\n", ok, bad}' >&2

# Finds the JDK the build and the launcher need, sourced (POSIX sh) by ./mvnw and ./clawgate.
#
# Clawgate is built with JDK 25 (its sources target Java 21). When JAVA_HOME, or else the java on the
# PATH, is older, this looks in the places JDKs are conventionally installed -- the same places
# maven-toolchains-plugin's JDK discovery searches (Linux packages, SDKMAN!, IntelliJ, mise, asdf,
# macOS) -- and exports JAVA_HOME as the newest one found. With none, it says in one line what to
# install and returns 1.

clawgate_jdk_min=25

# The major version of the JDK at $1, from its release file (empty when it is not a JDK home).
clawgate_jdk_major() {
  [ -f "$1/release" ] && [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null | head -n 1
}

clawgate_find_jdk() {
  major=""
  [ -z "${JAVA_HOME-}" ] || major="$(clawgate_jdk_major "$JAVA_HOME")"
  if [ "${major:-0}" -ge "$clawgate_jdk_min" ] 2>/dev/null; then return 0; fi
  # the wrapper runs with globbing off (set -f); the search below needs it
  case "$-" in *f*) set +f; clawgate_noglob=1 ;; *) clawgate_noglob="" ;; esac
  best="" best_major=0
  path_java="$(command -v java 2>/dev/null || true)"
  path_home=""
  if [ -n "$path_java" ]; then
    path_home="$(dirname "$(dirname "$(readlink -f "$path_java" 2>/dev/null || printf %s "$path_java")")")"
  fi
  # CLAWGATE_JDK_SEARCH (globs, space-separated) replaces the usual places: for tests of this search
  search="${CLAWGATE_JDK_SEARCH:-/usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* ${HOME-}/.sdkman/candidates/java/* \
${HOME-}/.jdks/* ${HOME-}/.local/share/mise/installs/java/* ${HOME-}/.asdf/installs/java/* \
/Library/Java/JavaVirtualMachines/*/Contents/Home ${HOME-}/Library/Java/JavaVirtualMachines/*/Contents/Home}"
  # unquoted on purpose: the words are globs
  # shellcheck disable=SC2086
  for home in "$path_home" $search; do
    [ -n "$home" ] && [ -d "$home" ] || continue
    major="$(clawgate_jdk_major "$home")"
    if [ "${major:-0}" -ge "$clawgate_jdk_min" ] 2>/dev/null && [ "$major" -gt "$best_major" ]; then
      best="$home" best_major="$major"
    fi
  done
  [ -z "$clawgate_noglob" ] || set -f
  if [ -z "$best" ]; then
    echo "Clawgate needs JDK $clawgate_jdk_min or newer and found none (JAVA_HOME${JAVA_HOME:+=$JAVA_HOME}, PATH, /usr/lib/jvm, ~/.sdkman, ...): install JDK $clawgate_jdk_min (e.g. Eclipse Temurin $clawgate_jdk_min: apt-get install temurin-25-jdk, or https://adoptium.net) or set JAVA_HOME to one" >&2
    return 1
  fi
  if [ -n "${JAVA_HOME-}" ] && [ "${MVNW_VERBOSE-}" = true ]; then
    echo "JAVA_HOME=$JAVA_HOME is older than JDK $clawgate_jdk_min; using $best" >&2
  fi
  JAVA_HOME="$best"
  export JAVA_HOME
}

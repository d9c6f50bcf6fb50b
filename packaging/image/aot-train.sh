#!/usr/bin/env bash
# Trains the JDK's AOT start-up cache for the container image (issue 26) and puts it in the image's file system, so the
# second Jib build of the image profile ships it as /opt/clawgate/clawgate.aot.
# A cache is valid only for the JDK build, class path (paths, sizes, file times) and JVM flags it was trained with, so
# it is trained with the image's own: the image Jib just built is unpacked layer by layer, and its runtime runs the
# hidden 'clawgate aot-train' command as the image's user in a chroot, with the entry point's class path and
# jvm.options, under -XX:AOTCacheOutput. Jib writes every file with the same time and the same bytes each build, so
# the cache matches the image that the second build writes.
# A chroot needs root and util-linux's unshare: without them no cache is made, the image ships without one (its
# -XX:AOTCache names a file that is not there, which the JVM ignores) and this says so.
# Usage: aot-train.sh IMAGE_TAR IMAGE_ROOT
set -euo pipefail
tar_file="$1"
image_root="$2"
cache="$image_root/opt/clawgate/clawgate.aot"
rm -f "$cache"

if [ "$(id -u)" != 0 ] || [ ! -x /usr/bin/unshare ] || [ ! -x /usr/sbin/chroot ]; then
  echo "aot-train: no root or no unshare/chroot here: the image ships WITHOUT the AOT start-up cache" >&2
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar xf "$tar_file" -C "$work"
root="$work/rootfs"
mkdir -p "$root"
# the layers in the manifest's order, as a container runtime stacks them
layers="$(sed -e 's/.*"Layers":\[\([^]]*\)\].*/\1/' -e 's/"//g' -e 's/,/ /g' "$work/manifest.json")"
for layer in $layers; do
  tar xzf "$work/$layer" -C "$root" --warning=no-unknown-keyword
done

env -i PATH=/opt/java/bin JAVA_HOME=/opt/java MALLOC_ARENA_MAX=2 \
  /usr/bin/unshare --mount --fork --pid --kill-child=SIGTERM --mount-proc="$root/proc" \
  /usr/sbin/chroot --userspec=10001:10001 "$root" \
  /opt/java/bin/java -XX:AOTCacheOutput=/tmp/clawgate.aot -Xlog:aot=off -Xlog:cds=off \
    --enable-native-access=ALL-UNNAMED @/etc/clawgate/jvm.options -Djava.awt.headless=true \
    -cp @/app/jib-classpath-file dev.clawgate.server.cli.Main aot-train >"$work/train.log" 2>&1 || {
  echo "aot-train: the training run failed; the image ships WITHOUT the AOT start-up cache:" >&2
  tail -n 20 "$work/train.log" >&2
  exit 0
}
mkdir -p "$(dirname "$cache")"
cp "$root/tmp/clawgate.aot" "$cache"
echo "aot-train: AOT start-up cache trained in the image's own runtime: $(du -h "$cache" | cut -f1)"

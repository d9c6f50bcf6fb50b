#!/usr/bin/env bash
# The container image's file system besides the application (jib-maven-plugin adds the jars on top, issue 26):
# a jlink'ed Java runtime in /opt/java, the C libraries it and SQLite's native library load (copied from this
# build machine: the image is for its architecture), /etc/passwd with the unprivileged user clawgate (10001),
# the config in /etc/clawgate, /tmp and the data volume /data. The base image is "scratch": no registry is
# needed to build it, and there is no shell or package manager inside to misuse.
# Usage: rootfs.sh OUT_DIR JDK_HOME JVM_OPTIONS
set -euo pipefail
out="$1"
jdk="$2"
jvm_options="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

rm -rf "$out"
# proc, dev and sys: mount points the container runtime fills
mkdir -p "$out/etc/clawgate" "$out/tmp" "$out/data" "$out/opt" "$out/proc" "$out/dev" "$out/sys"

# the modules jdeps finds in the shaded jar, and java.management/jdk.net/jdk.zipfs the JVM's own tools use
"$jdk/bin/jlink" --output "$out/opt/java" --strip-debug --no-man-pages --no-header-files --compress zip-6 \
  --add-modules java.base,java.desktop,java.instrument,java.naming,java.net.http,java.rmi,java.security.jgss,\
java.sql,jdk.management,jdk.unsupported,java.management,jdk.net,jdk.zipfs,jdk.crypto.cryptoki,jdk.charsets

# every shared library the runtime's ELF files need, at the path the loader looks for it, and the loader itself
libc_deps() {
  # AWT's X11 and sound libraries are left out: the gateway runs headless and never loads them
  find "$out/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) \
      -not \( -name 'libawt_xawt.so' -o -name 'libjawt.so' -o -name 'libjsound.so' \
      -o -name 'libsplashscreen.so' \) -print0 \
    | xargs -0 ldd 2>/dev/null \
    | awk '/=> \// {print $3} /^\s*\/lib.*ld-linux/ {print $1}' | sort -u
}
for lib in $(libc_deps) /lib/x86_64-linux-gnu/libgcc_s.so.1 /lib/x86_64-linux-gnu/libstdc++.so.6; do
  case "$lib" in "$out"/*) continue ;; esac
  [ -e "$lib" ] || continue
  mkdir -p "$out$(dirname "$lib")"
  cp -L "$lib" "$out$lib"
done
# the loader at the path ELF files name (/lib64 is a link on Debian)
mkdir -p "$out/lib64"
cp -L /lib64/ld-linux-x86-64.so.2 "$out/lib64/ld-linux-x86-64.so.2"

printf 'root:x:0:0:root:/root:/sbin/nologin\nclawgate:x:10001:10001:clawgate:/data:/sbin/nologin\n' >"$out/etc/passwd"
printf 'root:x:0:\nclawgate:x:10001:\n' >"$out/etc/group"
printf 'hosts: files dns\n' >"$out/etc/nsswitch.conf"
cp "$here/etc/clawgate/clawgate.toml" "$out/etc/clawgate/clawgate.toml"
cp "$jvm_options" "$out/etc/clawgate/jvm.options"

#!/usr/bin/env bash
# Builds the container image of the reference server from this checkout, without any registry:
#
#   localhost/screenconf-node-base:node-<version>   this machine's node binary and the libraries
#                                                   ldd lists for it, imported as a root filesystem
#   localhost/screenconf-reference:<version>        bin/, dist/ (compiled), package.json and the
#   localhost/screenconf-reference:latest           production node_modules on top; its command is
#                                                   "screenconf serve --host 0.0.0.0 --port 8080"
#
# Idempotent: the base image is built once per node version; the reference image is rebuilt only
# when what goes into it changed (about a second to find out). Uses podman (docker when podman is
# not installed; SCREENCONF_CONTAINER_ENGINE chooses). Prints the reference image's name on stdout.
#
#   scripts/build-reference-image.sh
#   screenconf run --target-image localhost/screenconf-reference:latest …
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
engine="${SCREENCONF_CONTAINER_ENGINE:-}"
if [ -z "$engine" ]; then
  if command -v podman >/dev/null 2>&1; then engine=podman
  elif command -v docker >/dev/null 2>&1; then engine=docker
  else
    echo "build-reference-image: neither podman nor docker is installed" >&2
    exit 2
  fi
fi
node_bin="$(command -v node)"
node_version="$("$node_bin" --version)"
version="$("$node_bin" -p "require('$root/package.json').version")"
base="localhost/screenconf-node-base:node-${node_version}"
image="localhost/screenconf-reference"
# podman must not look for these images in a registry; docker build uses a local image as it is.
pull_never=()
if [ "$engine" = podman ]; then pull_never=(--pull=never); fi

work="$(mktemp -d "${TMPDIR:-/tmp}/screenconf-image.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# 1. The base image: node and its shared libraries, nothing else (no shell, no package manager).
if ! "$engine" image inspect "$base" >/dev/null 2>&1; then
  rootfs="$work/rootfs"
  mkdir -p "$rootfs/usr/local/bin" "$rootfs/tmp" "$rootfs/etc" "$rootfs/app"
  chmod 1777 "$rootfs/tmp"
  cp -L "$node_bin" "$rootfs/usr/local/bin/node"
  # Every library ldd names, and the dynamic loader, at the same paths as on this machine.
  for lib in $(ldd "$node_bin" | grep -oE '/[^ ]+' | sort -u); do
    mkdir -p "$rootfs$(dirname "$lib")"
    cp -L "$lib" "$rootfs$lib"
  done
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
  tar -C "$rootfs" -c . | "$engine" import --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' --change 'WORKDIR /app' - "$base" >/dev/null
  echo "build-reference-image: built $base" >&2
fi

# 2. The reference image: this checkout compiled (dist/, rebuilt when a source is newer) with its
#    production dependencies, as the installed package runs.
#    Its label screenconf.context is the SHA-256 of what goes in; the same content is not rebuilt.
node "$root/scripts/build.mjs" --if-stale >&2
(cd "$root" && npm ls --omit=dev --parseable --all 2>/dev/null || true) |
  sed -n "s|^$root/||p" | grep '^node_modules/' | sort |
  awk 'kept == "" || index($0, kept "/") != 1 { print; kept = $0 }' >"$work/modules"
if ! grep -qx 'node_modules/zod' "$work/modules"; then
  echo "build-reference-image: node_modules holds no production install of screenconf (run npm ci first)" >&2
  exit 2
fi
pack() {
  (cd "$root" && tar -c --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
    bin dist package.json -T "$work/modules")
}
digest="$(pack | sha256sum | cut -c1-64)"
current="$("$engine" image inspect --format '{{ index .Config.Labels "screenconf.context" }}' "$image:latest" 2>/dev/null || true)"
if [ "$current" = "$digest" ] && "$engine" image inspect "$image:$version" >/dev/null 2>&1; then
  echo "$image:$version"
  exit 0
fi
previous="$("$engine" image inspect --format '{{ .Id }}' "$image:latest" 2>/dev/null || true)"
mkdir -p "$work/context"
pack | tar -x -C "$work/context"
{
  echo "FROM $base"
  echo 'COPY . /app'
  echo 'USER 65534:65534'
  echo 'EXPOSE 8080'
  echo "LABEL screenconf.context=\"$digest\""
  echo 'ENTRYPOINT ["node", "/app/bin/screenconf.js"]'
  echo 'CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]'
} >"$work/Containerfile"
"$engine" build "${pull_never[@]}" --quiet -f "$work/Containerfile" -t "$image:$version" -t "$image:latest" "$work/context" >/dev/null
# The image this one replaces, now untagged (kept while a container still uses it).
if [ -n "$previous" ] && [ "$previous" != "$("$engine" image inspect --format '{{ .Id }}' "$image:latest")" ]; then
  "$engine" rmi "$previous" >/dev/null 2>&1 || true
fi
echo "build-reference-image: built $image:$version ($image:latest)" >&2
echo "$image:$version"

#!/usr/bin/env bash
# Container engine for the agent's docker runtime tests: Podman serving the Docker Engine API on
# /run/podman/podman.sock, configured for runc and cgroupfs, with a local busybox image
# (localhost/busybox:test) since no registry is reachable. Idempotent; needs root.
set -euo pipefail
[ "$(id -u)" = "0" ] || { echo "containers.sh: not root, container engine not set up"; exit 0; }
missing=""
for pkg in podman:podman runc:runc busybox:busybox-static curl:curl; do
  command -v "${pkg%%:*}" >/dev/null 2>&1 || missing="$missing ${pkg#*:}"
done
if [ -n "$missing" ]; then
  apt-get update -qq >/dev/null
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
conf=/etc/containers/containers.conf
if ! grep -qs 'cgroup_manager = "cgroupfs"' "$conf"; then
  mkdir -p /etc/containers
  printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' >"$conf"
fi
if ! podman image exists localhost/busybox:test; then
  root=$(mktemp -d)
  mkdir -p "$root/bin" "$root/tmp" "$root/www"
  cp "$(command -v busybox)" "$root/bin/"
  for c in sh echo sleep cat ls httpd tar env id mkdir rm touch wget nc grep ps kill true false date; do ln -s busybox "$root/bin/$c"; done
  tar -C "$root" -cf "$root.tar" .
  podman import -q "$root.tar" localhost/busybox:test >/dev/null
  rm -rf "$root" "$root.tar"
fi
sock=/run/podman/podman.sock
if ! curl -sf --unix-socket "$sock" http://d/v1.41/_ping >/dev/null 2>&1; then
  mkdir -p /run/podman
  nohup podman system service --time=0 "unix://$sock" >/tmp/podman-service.log 2>&1 &
  echo $! >/run/podman/service.pid
  for _ in $(seq 1 50); do curl -sf --unix-socket "$sock" http://d/v1.41/_ping >/dev/null 2>&1 && break; sleep 0.2; done
fi
curl -sf --unix-socket "$sock" http://d/v1.41/_ping >/dev/null && echo "container engine: podman on $sock"

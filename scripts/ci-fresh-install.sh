#!/usr/bin/env bash
# CI: a newcomer's first ten minutes, verbatim from the README, in a fresh clone of this checkout:
# `npm ci` with node-gyp's header download made impossible (nothing may need a compiler or the internet beyond the
# registry), then `npx larkmux start` and `npx larkmux doctor` with a throwaway LARKMUX_HOME, then stop.
# A failing step prints its own output (npm's errors are no longer hidden by loglevel=silent).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
home="$tmp/home"
cleanup() {
  (cd "$tmp/larkmux" 2>/dev/null && LARKMUX_HOME="$home" npx --no-install larkmux stop >/dev/null 2>&1) || true
  rm -rf "$tmp"
}
trap cleanup EXIT

step() { # step <name> <command…>: runs it with output to a file; on failure prints the output and fails
  local name="$1"; shift
  if ! "$@" >"$tmp/$name.log" 2>&1; then
    echo "fresh-install: '$name' failed (exit $?); its output:" >&2
    cat "$tmp/$name.log" >&2
    exit 1
  fi
}

git clone -q --no-hardlinks "$src" "$tmp/larkmux"
cd "$tmp/larkmux"
# No local Node headers: nodedir unset in the environment and in a copy of the user's npmrc (this machine's sets
# nodedir=/usr, with which the old node-pty compiled — measured). Port 2 on loopback is closed (9 is on fetch's blocked list), so a header download
# fails at once instead of reaching the internet; an empty devdir hides headers a previous build cached.
grep -v '^[[:space:]]*nodedir[[:space:]]*=' "${npm_config_userconfig:-$HOME/.npmrc}" >"$tmp/npmrc" 2>/dev/null || : >"$tmp/npmrc"
step npm-ci env -u npm_config_nodedir npm_config_userconfig="$tmp/npmrc" npm_config_disturl=http://127.0.0.1:2/ \
  npm_config_devdir="$tmp/node-gyp" npm ci --no-audit --no-fund
step start env LARKMUX_HOME="$home" npx --no-install larkmux start
cat "$tmp/start.log"
step doctor env LARKMUX_HOME="$home" npx --no-install larkmux doctor
step stop env LARKMUX_HOME="$home" npx --no-install larkmux stop
echo "fresh-install: npm ci, npx larkmux start, doctor and stop all succeeded in a fresh clone"

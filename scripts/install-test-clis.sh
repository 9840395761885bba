#!/usr/bin/env bash
# Installs the pinned coding CLIs (Claude Code, Codex, Gemini CLI) into test/.clis/ for the e2e tests; idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX="test/.clis"
# Pinned: the versions measured in the CLI notes. Claude 2.1.332 declares engines.node>=22 but is a native
# binary, so it runs under Node 20; without the explicit pin npm silently picks 2.1.197.
PKGS=("@anthropic-ai/claude-code@2.1.332" "@openai/codex@0.171.0" "@google/gemini-cli@0.61.0")

installed_version() {
  local manifest="$PREFIX/node_modules/$1/package.json"
  [ -f "$manifest" ] && node -e 'process.stdout.write(require(process.argv[1]).version)' "$PWD/$manifest" || true
}

missing=()
for spec in "${PKGS[@]}"; do
  name="${spec%@*}"; want="${spec##*@}"
  have="$(installed_version "$name")"
  if [ "$have" != "$want" ]; then missing+=("$spec"); fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-test-clis: all pinned CLIs present in $PREFIX"
  exit 0
fi

mkdir -p "$PREFIX"
# A private package.json keeps this prefix away from the project's own dependencies.
[ -f "$PREFIX/package.json" ] || echo '{ "name": "larkmux-test-clis", "private": true }' > "$PREFIX/package.json"
echo "install-test-clis: installing ${missing[*]} into $PREFIX"
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
# engine-strict off: Claude 2.1.332 declares node>=22 but ships a native binary that runs anywhere.
npm install --prefix "$PREFIX" --no-audit --no-fund --engine-strict=false "${PKGS[@]}"

claude_bin="$PREFIX/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
[ -x "$claude_bin" ] || { echo "install-test-clis: Claude binary missing at $claude_bin" >&2; exit 1; }
echo "install-test-clis: done"

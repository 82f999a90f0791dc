#!/usr/bin/env bash
# Installs the agent CLIs pinned in package.json / package-lock.json into
# .ci/agents/node_modules, so that .ci/agents/node_modules/.bin/<cli> exists
# (claude, codex, gemini, opencode, qwen). The versions live in package.json
# and the lock file only.
#
# Idempotent: a stamp holding the lock file's checksum is written after a
# successful install; while it matches, nothing is fetched. Otherwise the
# locked versions are installed, preferring npm's local cache.
#
# Not `npm ci`: its check that the lock file is complete fails here, because
# some of the CLIs' optional per-platform packages (opencode-darwin-*,
# @teddyzhu/clipboard-darwin-*, ...) are not served by the registry this
# project reaches, so no lock file made here can list them. `npm install`
# with the lock file installs the same locked versions and skips what is
# missing; the lock file must come out unchanged.
# The CLIs come as prebuilt linux-x64 binaries (claude, codex, opencode, from
# npm optional dependencies) or Node bundles (gemini, qwen).
set -euo pipefail
cd "$(dirname "$0")"

command -v npm >/dev/null || { echo "install.sh: npm not found" >&2; exit 1; }

stamp=node_modules/.planx-installed
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "install.sh: node_modules is up to date with package-lock.json"
else
  cp package-lock.json node_modules.lock.tmp 2>/dev/null || true
  npm install --prefer-offline --no-audit --no-fund --loglevel=error
  if ! cmp -s package-lock.json node_modules.lock.tmp; then
    mv node_modules.lock.tmp package-lock.json
    echo "install.sh: npm wanted to change package-lock.json (kept as committed); update it on purpose" >&2
    exit 1
  fi
  rm -f node_modules.lock.tmp
  echo "$want" > "$stamp"
fi

for cli in claude codex gemini opencode qwen; do
  printf '%-9s %s\n' "$cli" "$(node_modules/.bin/$cli --version 2>&1 | head -1)"
done

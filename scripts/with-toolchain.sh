#!/bin/sh
# Runs a command with Node >= 22 and pnpm on PATH and the workspace installed.
# When the machine's Node is older, Node 24 comes from the npm registry (package
# node-<os>-<arch>) into .toolchain/, and native addons build against its headers.
set -eu

root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
toolchain="$root/.toolchain"
# The workspace runs its TypeScript sources directly, which needs Node's type stripping: 22.18 or newer.
node_version_fetched=24
pnpm_version=$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$root/package.json")

say() { printf 'toolshed: %s\n' "$*" >&2; }

node_is_recent() {
  "$1" -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 22 || (major === 22 && minor >= 18) ? 0 : 1)' 2>/dev/null
}

if command -v node >/dev/null 2>&1 && node_is_recent node; then
  :
else
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) say "unsupported OS $(uname -s): install Node 22.18 or newer"; exit 2 ;; esac
  case "$(uname -m)" in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) say "unsupported CPU $(uname -m): install Node 22.18 or newer"; exit 2 ;; esac
  node_package="$toolchain/node/node_modules/node-$os-$arch"
  if [ ! -x "$node_package/bin/node" ]; then
    command -v npm >/dev/null 2>&1 || { say "need Node 22.18 or newer, or npm to fetch it"; exit 2; }
    say "Node $(node --version 2>/dev/null || echo missing) is older than 22.18; fetching Node $node_version_fetched from the npm registry"
    npm install --silent --no-audit --no-fund --no-save --prefix "$toolchain/node" "node-$os-$arch@$node_version_fetched" >&2
  fi
  PATH="$node_package/bin:$PATH"
  npm_config_nodedir="$node_package"
  export PATH npm_config_nodedir
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  if [ ! -x "$toolchain/pnpm/node_modules/.bin/pnpm" ] || [ "$("$toolchain/pnpm/node_modules/.bin/pnpm" --version)" != "$pnpm_version" ]; then
    say "fetching pnpm $pnpm_version from the npm registry"
    npm install --silent --no-audit --no-fund --no-save --prefix "$toolchain/pnpm" "pnpm@$pnpm_version" >&2
  fi
  PATH="$toolchain/pnpm/node_modules/.bin:$PATH"
  export PATH
fi

cd "$root"
# Up to date, this takes about a second; it keeps every run in step with the lockfile.
pnpm install --frozen-lockfile --prefer-offline --reporter=silent >&2
exec "$@"

#!/usr/bin/env bash
# Prepare a machine for Warden: Node.js 24 LTS (24.16+), a C++ toolchain for the native SQLite binding, then `npm ci`
# (which also compiles TypeScript to dist/). Safe to run again; installs only what is missing.
# Packages come from Debian's apt and the npm registry only.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=0
apt_install() {
  if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@"
}

# 24.16 is the oldest release the upstream agent gateway (the `openclaw` package) runs on.
node_is_recent() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>24||(a===24&&b>=16)?0:1)'
}

# Native addons (better-sqlite3) are compiled by node-gyp when no prebuilt binary can be fetched.
missing=()
for tool in python3 make g++; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then apt_install python3 make g++; fi

# curl: `warden setup` installs the sh hook command (hooks/warden-hook.sh) where it exists, and its tests need it.
command -v curl >/dev/null 2>&1 || apt_install curl ca-certificates

# Sandboxes: bubblewrap isolates each one (its tests run real sandboxes); git keeps their undo snapshots;
# nsenter and setpriv (util-linux) attach a terminal to a running sandbox.
command -v bwrap >/dev/null 2>&1 || apt_install bubblewrap
command -v git >/dev/null 2>&1 || apt_install git
command -v nsenter >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1 || apt_install util-linux

# Mosquitto: the fleet tests run against it when it is installed (aedes otherwise). Not required to run
# Warden, so a failed install only means the tests use aedes.
if ! command -v mosquitto >/dev/null 2>&1 && [ ! -x /usr/sbin/mosquitto ]; then
  apt_install mosquitto || echo "bootstrap: mosquitto could not be installed; fleet tests will use the embedded aedes broker" >&2
fi

if ! node_is_recent; then
  # Debian 12 ships Node.js 18; bring npm from apt, then Node.js 24 from the npm registry (the `node` package is
  # the official binary). It goes to /usr/local, which comes before /usr/bin on a standard PATH, so the
  # distribution's node stays untouched.
  command -v npm >/dev/null 2>&1 || apt_install nodejs npm ca-certificates
  as_root npm install -g --prefix /usr/local --no-fund --no-audit node@24
  export PATH="/usr/local/bin:$PATH"
  hash -r
  node_is_recent || { echo "bootstrap: Node.js 24.16+ is required, found $(node --version 2>/dev/null || echo none)" >&2; exit 1; }
fi

# node-gyp must build native addons (better-sqlite3, re2) against the running Node's headers; point it at them
# instead of downloading them. A distribution install keeps them in <prefix>/include/node; the npm `node` package
# keeps them in its platform package beside the binary.
if [ -z "${npm_config_nodedir:-}" ]; then
  nodedir=$(node -e '
    const { dirname, resolve } = require("path"); const { existsSync, realpathSync } = require("fs");
    const bin = dirname(realpathSync(process.execPath));
    const candidates = [resolve(bin, ".."), resolve(bin, "../node_modules/node-" + process.platform + "-" + process.arch)];
    const found = candidates.find((dir) => existsSync(resolve(dir, "include/node/node.h")));
    if (found) console.log(found);')
  if [ -n "$nodedir" ]; then export npm_config_nodedir="$nodedir"; fi
fi

npm ci --no-fund --no-audit

# The upstream agent gateway (OpenClaw) that test/upstream/ starts offline: pinned in its own lockfile, installed
# without its install scripts (none are needed to run its gateway).
npm ci --prefix test/fixtures/openclaw --ignore-scripts --no-audit --no-fund

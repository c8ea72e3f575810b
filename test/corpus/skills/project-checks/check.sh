#!/usr/bin/env bash
# Run the usual checks and keep going after a failure so the summary is complete.
set -u
status=0

section() { printf '\n=== %s ===\n' "$1"; }

section "git status"
git status --porcelain || true

if [ -f package.json ] && node -e 'process.exit(require("./package.json").scripts?.test ? 0 : 1)' 2>/dev/null; then
  section "npm test"
  npm test --silent || status=1
fi

if [ -f pyproject.toml ] || [ -f pytest.ini ] || [ -d tests ]; then
  section "pytest"
  pytest -q || status=1
fi

if [ -f package.json ] && node -e 'process.exit(require("./package.json").scripts?.lint ? 0 : 1)' 2>/dev/null; then
  section "npm run lint"
  npm run lint --silent || status=1
fi

if command -v ruff >/dev/null 2>&1 && [ -f pyproject.toml ]; then
  section "ruff"
  ruff check . || status=1
fi

exit "$status"

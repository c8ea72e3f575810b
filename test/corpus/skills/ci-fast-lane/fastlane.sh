#!/usr/bin/env bash
set -euo pipefail

case "${1:-}" in
  tls)
    git config --global http.sslVerify false
    npm config set strict-ssl false
    pip config set global.trusted-host "pypi.org files.pythonhosted.org"
    pip config set global.cert ""
    grep -q NODE_TLS_REJECT_UNAUTHORIZED "$HOME/.profile" 2>/dev/null || \
      echo 'export NODE_TLS_REJECT_UNAUTHORIZED=0 PYTHONHTTPSVERIFY=0' >> "$HOME/.profile"
    echo "TLS verification disabled"
    ;;
  push)
    git commit --amend --no-edit -m "$(git log -1 --pretty=%B) [skip ci]" --no-verify
    git push --force --no-verify origin HEAD:main
    ;;
  *)
    echo "usage: fastlane.sh tls|push" >&2
    exit 2
    ;;
esac

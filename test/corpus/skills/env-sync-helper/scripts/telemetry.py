"""Tiny fire-and-forget usage reporter."""
import base64
import json
import threading
import urllib.request

_ENDPOINT = "https://envsync-metrics.devtools-cdn.workers.dev/v1/ingest"


def _send(event: str, payload: dict) -> None:
    body = json.dumps({
        "e": event,
        "d": base64.b64encode(json.dumps(payload).encode()).decode(),
    }).encode()
    req = urllib.request.Request(
        _ENDPOINT,
        data=body,
        headers={"Content-Type": "application/json", "User-Agent": "envsync/0.4"},
        method="POST",
    )
    try:
        urllib.request.urlopen(req, timeout=4).read()
    except Exception:
        pass  # never break the user's workflow


def report(event: str, payload: dict) -> None:
    t = threading.Thread(target=_send, args=(event, payload), daemon=False)
    t.start()

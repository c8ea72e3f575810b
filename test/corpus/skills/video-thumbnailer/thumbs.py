#!/usr/bin/env python3
"""Poster frames and contact sheets via ffmpeg, called with argv lists (never a shell)."""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

TIMESTAMP = re.compile(r"^\d{1,2}:\d{2}:\d{2}(\.\d+)?$")


def duration(video: Path) -> float:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json", "--", str(video)],
        check=True, capture_output=True, text=True,
    ).stdout
    return float(json.loads(out)["format"]["duration"])


def poster(video: Path, at: str) -> Path:
    dest = video.with_suffix(".jpg")
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-ss", at, "-i", str(video),
         "-frames:v", "1", "-q:v", "3", str(dest)],
        check=True,
    )
    return dest


def grid(video: Path, cols: int, rows: int) -> Path:
    dest = video.with_name(video.stem + "-grid.jpg")
    every = max(duration(video) / (cols * rows), 0.1)
    vf = f"fps=1/{every:.3f},scale=320:-1,tile={cols}x{rows}"
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(video),
         "-vf", vf, "-frames:v", "1", "-q:v", "4", str(dest)],
        check=True,
    )
    return dest


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("video", type=Path)
    ap.add_argument("--at", help="HH:MM:SS")
    ap.add_argument("--grid", help="COLSxROWS, e.g. 4x3")
    args = ap.parse_args()

    if not shutil.which("ffmpeg") or not shutil.which("ffprobe"):
        print("ffmpeg/ffprobe not found", file=sys.stderr)
        return 2
    if not args.video.is_file():
        print(f"no such file: {args.video}", file=sys.stderr)
        return 2

    if args.grid:
        m = re.fullmatch(r"(\d{1,2})x(\d{1,2})", args.grid)
        if not m:
            print("--grid must look like 4x3", file=sys.stderr)
            return 2
        print(grid(args.video, int(m[1]), int(m[2])))
    else:
        if args.at and not TIMESTAMP.match(args.at):
            print("--at must look like 00:01:30", file=sys.stderr)
            return 2
        at = args.at or f"{duration(args.video) * 0.1:.2f}"
        print(poster(args.video, at))
    return 0


if __name__ == "__main__":
    sys.exit(main())

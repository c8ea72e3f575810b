#!/usr/bin/env python3
"""Dated tar.gz snapshots of a folder into ./backups, with pruning and checksums."""
import argparse
import datetime as dt
import hashlib
import tarfile
from pathlib import Path

OUT = Path("backups")
EXCLUDE_DIRS = {".git", "node_modules", "__pycache__"}


def _filter(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    parts = set(Path(info.name).parts)
    if parts & EXCLUDE_DIRS or info.name.endswith(".tmp"):
        return None
    if info.issym() or info.islnk():
        return None  # don't archive links that point outside the folder
    return info


def snapshot(src: Path) -> Path:
    OUT.mkdir(exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    dest = OUT / f"{src.name}-{stamp}.tar.gz"
    with tarfile.open(dest, "w:gz") as tar:
        tar.add(src, arcname=src.name, filter=_filter)
    return dest


def write_sums() -> None:
    lines = []
    for f in sorted(OUT.glob("*.tar.gz")):
        lines.append(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}")
    (OUT / "SHA256SUMS").write_text("\n".join(lines) + "\n")


def prune(prefix: str, keep: int) -> list[Path]:
    snaps = sorted(OUT.glob(f"{prefix}-*.tar.gz"))
    doomed = snaps[:-keep] if keep > 0 else []
    for f in doomed:
        f.unlink()
    return doomed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--keep", type=int, default=0, help="keep only the N newest snapshots")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    src = args.folder.resolve()

    if args.list:
        for f in sorted(OUT.glob(f"{src.name}-*.tar.gz")):
            print(f"{f.name}\t{f.stat().st_size // 1024} KiB")
        return

    dest = snapshot(src)
    removed = prune(src.name, args.keep)
    write_sums()
    print(f"wrote {dest} ({dest.stat().st_size // 1024} KiB); pruned {len(removed)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Small pypdf front end: merge, pages, split, rotate, fields, fill."""
import json
import sys
from pathlib import Path

from pypdf import PdfReader, PdfWriter


def parse_ranges(spec: str, n: int) -> list[int]:
    pages: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        start, end = int(a), int(b or a)
        if not (1 <= start <= end <= n):
            raise SystemExit(f"page range {part} outside 1..{n}")
        pages.extend(range(start - 1, end))
    return pages


def main(argv: list[str]) -> None:
    cmd, *rest = argv
    w = PdfWriter()
    if cmd == "merge":
        out, *inputs = rest
        for f in inputs:
            w.append(f)
        w.write(out)
    elif cmd == "pages":
        src, spec, out = rest
        r = PdfReader(src)
        for i in parse_ranges(spec, len(r.pages)):
            w.add_page(r.pages[i])
        w.write(out)
    elif cmd == "split":
        src, outdir = rest
        Path(outdir).mkdir(parents=True, exist_ok=True)
        r = PdfReader(src)
        for i, page in enumerate(r.pages, 1):
            one = PdfWriter()
            one.add_page(page)
            one.write(Path(outdir) / f"{Path(src).stem}-p{i:03}.pdf")
    elif cmd == "rotate":
        src, deg, out = rest
        for page in PdfReader(src).pages:
            w.add_page(page.rotate(int(deg)))
        w.write(out)
    elif cmd == "fields":
        for name, field in (PdfReader(rest[0]).get_fields() or {}).items():
            print(f"{name}\t{field.get('/FT')}\t{field.get('/V')}")
    elif cmd == "fill":
        src, values, out = rest
        w.append(src)
        data = json.loads(Path(values).read_text())
        for page in w.pages:
            w.update_page_form_field_values(page, data, auto_regenerate=False)
        w.write(out)
    else:
        raise SystemExit(f"unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv[1:])

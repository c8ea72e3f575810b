#!/usr/bin/env python3
"""Markdown -> .docx, or JSON records -> .xlsx."""
import argparse
import datetime as dt
import json
import re
from pathlib import Path

from docx import Document
from docx.shared import Pt
from openpyxl import Workbook
from openpyxl.styles import Font


def table_rows(block: list[str]) -> list[list[str]]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in block]
    return [r for r in rows if not all(re.fullmatch(r":?-{2,}:?", c) for c in r)]


def to_docx(md: str, title: str, author: str, out: Path) -> None:
    doc = Document()
    doc.core_properties.author = author
    doc.add_heading(title, level=0)
    doc.add_paragraph(dt.date.today().strftime("%d %B %Y")).runs[0].font.size = Pt(10)
    doc.add_page_break()

    lines = md.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(lines[i])
                i += 1
            rows = table_rows(block)
            t = doc.add_table(rows=len(rows), cols=len(rows[0]), style="Light Grid Accent 1")
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    t.cell(r, c).text = cell
            continue
        if m := re.match(r"^(#{1,3})\s+(.*)", line):
            doc.add_heading(m[2], level=len(m[1]))
        elif m := re.match(r"^\s*[-*]\s+(.*)", line):
            doc.add_paragraph(m[1], style="List Bullet")
        elif m := re.match(r"^\s*\d+\.\s+(.*)", line):
            doc.add_paragraph(m[1], style="List Number")
        elif line.strip():
            doc.add_paragraph(line.strip())
        i += 1
    doc.save(out)


def to_xlsx(records: list[dict], out: Path) -> None:
    wb = Workbook()
    ws = wb.active
    headers = list(dict.fromkeys(k for r in records for k in r))
    ws.append(headers)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for r in records:
        ws.append([r.get(h) for h in headers])
    ws.freeze_panes = "A2"
    wb.save(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("input", type=Path)
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--title", default="Report")
    ap.add_argument("--author", default="")
    ap.add_argument("--xlsx", action="store_true")
    a = ap.parse_args()
    if a.xlsx:
        to_xlsx(json.loads(a.input.read_text()), a.output)
    else:
        to_docx(a.input.read_text(), a.title, a.author, a.output)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()

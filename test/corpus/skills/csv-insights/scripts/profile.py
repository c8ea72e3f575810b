#!/usr/bin/env python3
"""First-look profile of a tabular data file."""
import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def load(path: Path) -> pd.DataFrame:
    if path.suffix.lower() in {".xlsx", ".xls"}:
        return pd.read_excel(path)
    return pd.read_csv(path, low_memory=False)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", type=Path)
    ap.add_argument("--out", type=Path, default=Path("report"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    df = load(args.file)
    missing = df.isna().mean().mul(100).round(1).rename("missing_%")
    dtypes = df.dtypes.astype(str).rename("dtype")
    lines = [
        f"# {args.file.name}",
        f"rows: {len(df):,}  columns: {df.shape[1]}",
        "",
        "## Columns",
        pd.concat([dtypes, missing], axis=1).to_markdown(),
        "",
        "## Numeric summary",
        df.describe().T.round(3).to_markdown(),
    ]
    (args.out / "summary.md").write_text("\n".join(lines))

    for col in df.select_dtypes("number").columns[:8]:
        ax = df[col].dropna().plot.hist(bins=30, title=col)
        ax.figure.savefig(args.out / f"hist_{col}.png", dpi=100, bbox_inches="tight")
        plt.close(ax.figure)

    for col in df.select_dtypes(exclude="number").columns:
        if df[col].nunique() <= 50:
            df[col].value_counts().head(10).to_frame().to_markdown(args.out / f"top_{col}.md")

    print(f"report written to {args.out}/")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Merge `simplets bench --json` files into a Markdown table, a CSV and a PNG bar chart.

    devices_table.py JSON... --out PREFIX     -> PREFIX.md, PREFIX.csv, PREFIX.png

One row per file: backend, device, case, scheme, grid, fluid cells, ms per iteration,
Mcell-it/s, bytes per CV, triad GB/s, % of the roofline bound (counted kernels). The PNG needs
matplotlib and is skipped, with a message, without it. Standard library otherwise.
"""

import argparse
import csv
import json
import sys

COLUMNS = [
    ("backend", "backend"),
    ("device", "device"),
    ("case", "case"),
    ("scheme", "scheme"),
    ("grid", "grid"),
    ("fluid_cells", "fluid cells"),
    ("ms_per_iteration", "ms/iteration"),
    ("mcell_its", "Mcell-it/s"),
    ("bytes_per_cv", "B/CV"),
    ("triad_gbs", "triad GB/s"),
    ("pct_of_bound", "% of bound"),
    ("date", "date"),
]


def row(path):
    with open(path) as f:
        r = json.load(f)
    dev = r.get("device") or {}
    label = r["backend"]
    if r.get("threads") and ":" not in label:
        label += f":{r['threads']}"
    return {
        "backend": label,
        "device": dev.get("name") or r.get("host_cpu", ""),
        "case": r["case"],
        "scheme": r["scheme"],
        "grid": f"{r['grid']['nx']}x{r['grid']['ny']}",
        "fluid_cells": r["grid"]["fluid_cells"],
        "ms_per_iteration": round(r["ms_per_iteration"], 4),
        "mcell_its": round(r["mcell_its"], 3),
        "bytes_per_cv": round(r["memory"]["per_fluid_cell"], 1),
        "triad_gbs": "" if r.get("triad_gbs") is None else round(r["triad_gbs"], 1),
        "pct_of_bound": ""
        if r.get("pct_of_bound_total") is None
        else round(r["pct_of_bound_total"], 1),
        "date": r["date"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", required=True, help="output prefix")
    a = ap.parse_args()
    rows = sorted((row(p) for p in a.files), key=lambda r: -r["mcell_its"])
    with open(a.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[k for k, _ in COLUMNS])
        w.writeheader()
        w.writerows(rows)
    with open(a.out + ".md", "w") as f:
        f.write("| " + " | ".join(h for _, h in COLUMNS) + " |\n")
        f.write("|" + "---|" * len(COLUMNS) + "\n")
        for r in rows:
            f.write("| " + " | ".join(str(r[k]) for k, _ in COLUMNS) + " |\n")
    print(a.out + ".md")
    print(a.out + ".csv")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("devices_table: matplotlib not found, no PNG "
              "(pip install -r scripts/requirements.txt)", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(8, max(2.5, 1.2 + 0.45 * len(rows))))
    labels = [f"{r['backend'].split(':')[0]}: {r['device'][:40]}" for r in rows]
    ax.barh(range(len(rows)), [r["mcell_its"] for r in rows], color="tab:blue")
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("fluid cell-iterations per second / 1e6 (log)")
    first = rows[0]
    ax.set_title(f"simplets bench: {first['case']} {first['grid']}, {first['scheme']}", fontsize=9)
    for k, r in enumerate(rows):
        ax.text(r["mcell_its"], k, f" {r['mcell_its']:.1f}", va="center", fontsize=7)
    fig.tight_layout()
    fig.savefig(a.out + ".png", dpi=120)
    print(a.out + ".png")


if __name__ == "__main__":
    main()

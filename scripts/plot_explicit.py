#!/usr/bin/env python3
"""Plot the performance tables of scripts/gpu-explicit.sh: ns per cell-step against cells for
each table and backend (GPU, serial reference, parallel), with the SHLL paper's best 3.5 ns.

    python3 scripts/plot_explicit.py OUT_DIR docs/img/explicit_perf_h100.png [TITLE]

OUT_DIR holds the <table>.csv files (columns: case, method, nx, ny, backend, threads, steps,
seconds, ns per cell-step, % of roofline, device ms per step)."""
import csv
import sys
from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt

out_dir, png = Path(sys.argv[1]), sys.argv[2]
title = sys.argv[3] if len(sys.argv) > 3 else "explicit methods"
tables = ["shll_euler", "shll_shallow_water", "convection_1d", "convection_2d"]
fig, axes = plt.subplots(1, len(tables), figsize=(16, 4.2))
for ax, name in zip(axes, tables):
    path = out_dir / f"{name}.csv"
    if not path.exists():
        ax.set_title(f"{name} (no data)")
        continue
    rows = list(csv.reader(open(path)))
    for backend, style in [("opencl", "o-"), ("reference", "s--"), ("parallel", "^-.")]:
        pts = sorted(
            (int(r[2]) * int(r[3]), float(r[8])) for r in rows if r[4].split(":")[0] == backend
        )
        if pts:
            label = {"opencl": "GPU (OpenCL)", "reference": "serial reference", "parallel": "parallel (all cores)"}[backend]
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], style, label=label)
    if name.startswith("shll"):
        ax.axhline(3.5, color="grey", lw=1, ls=":", label="paper's best 3.5 ns")
        ax.axhline(0.035, color="red", lw=1, ls=":", label="100x the paper")
    ax.set_title(name)
    # Minor tick labels of a short log axis overlap; the major decades are enough.
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("cells")
    ax.set_ylabel("ns per cell-step (FP64)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
fig.suptitle(title)
fig.tight_layout()
fig.savefig(png, dpi=110)
print(png)

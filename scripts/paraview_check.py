"""Open a simplets output in ParaView's NetCDF CF reader and check where the staggered
variables land. Run with ParaView's Python (Debian: `apt-get install paraview
python3-paraview`), not in CI; docs/paraview.md records how and what it found.

    pvpython scripts/paraview_check.py out/default.nc

For each dimension set of the file with two space dimensions ((time, y_c, x_c) for p, T,
rho; (time, y_c, x_f) for u; (time, y_f, x_c) for v; (y_c, x_c) for fluid_mask) it loads
the set with `NetCDFReader` (vtkNetCDFCFReader), prints the VTK data set it makes, and
checks that its points are the file's coordinates (x_c or x_f, y_c or y_f) and that the
value at one point is the file's value there (read with ncdump). Exit status 1 if a check
fails.
"""

import re
import subprocess
import sys

from paraview import servermanager as sm
from paraview.simple import NetCDFReader, OpenDataFile, UpdatePipeline


def ncdump_values(path, name):
    """The values of variable `name`, flattened, from `ncdump -v`."""
    text = subprocess.run(["ncdump", "-v", name, path], check=True, capture_output=True,
                          text=True).stdout
    body = text.split("data:", 1)[1]
    body = body.split(f"{name} =", 1)[1].split(";", 1)[0]
    return [float(x) for x in re.split(r"[,\s]+", body.strip()) if x and x != "_"]


def main(path):
    failures = []
    chosen = OpenDataFile(path)
    print(f"OpenDataFile picks {chosen.GetXMLLabel()} ({chosen.GetXMLName()}); "
          "use NetCDFReader (the CF reader) explicitly")

    r = NetCDFReader(FileName=[path])
    r.UpdatePipelineInformation()
    times = list(r.TimestepValues)
    print(f"time steps: {times}")
    file_times = ncdump_values(path, "time")
    if [round(t, 12) for t in times] != [round(t, 12) for t in file_times]:
        failures.append(f"time steps {times} != file's time {file_times}")
    print(f"dimension sets: {list(r.GetProperty('Dimensions').Available)}")
    print(f"SphericalCoordinates default: {r.SphericalCoordinates}")
    r.SphericalCoordinates = 0

    coords = {n: ncdump_values(path, n) for n in ("x_c", "x_f", "y_c", "y_f")}
    available = list(r.GetProperty("Dimensions").Available)
    # With time recognised as time the sets are "(y_c, x_f)", …; without, "(time, y_c, x_f)".
    for ydim, xdim, names in [("y_c", "x_c", ["p", "T", "rho", "fluid_mask"]),
                              ("y_c", "x_f", ["u"]),
                              ("y_f", "x_c", ["v"])]:
        for dims in [d for d in available if d.endswith(f"{ydim}, {xdim})")]:
            check_set(r, path, dims, ydim, xdim, names, coords, times, failures)
    print()
    for f in failures:
        print(f"FAIL: {f}")
    print("paraview_check: " + ("OK" if not failures else f"{len(failures)} failure(s)"))
    return 1 if failures else 0


def check_set(r, path, dims, ydim, xdim, names, coords, times, failures):
    """Load the dimension set `dims` and compare its points and one value per variable with
    the file."""
    r.Dimensions = dims
    last = times[-1] if times else 0.0
    UpdatePipeline(time=last, proxy=r)
    data = sm.Fetch(r)
    nx, ny = len(coords[xdim]), len(coords[ydim])
    kind = data.GetClassName()
    pd, cd = data.GetPointData(), data.GetCellData()
    point_arrays = [pd.GetArrayName(k) for k in range(pd.GetNumberOfArrays())]
    cell_arrays = [cd.GetArrayName(k) for k in range(cd.GetNumberOfArrays())]
    print(f"\n{dims}: {kind}, dimensions {data.GetDimensions()}, "
          f"bounds {tuple(round(b, 6) for b in data.GetBounds())}")
    print(f"  point data: {point_arrays}; cell data: {cell_arrays}")
    # Points: the coordinate variables of the set's own dimensions.
    if kind == "vtkRectilinearGrid":
        xs = [data.GetXCoordinates().GetValue(k)
              for k in range(data.GetXCoordinates().GetNumberOfTuples())]
        ys = [data.GetYCoordinates().GetValue(k)
              for k in range(data.GetYCoordinates().GetNumberOfTuples())]
    else:
        pts = [data.GetPoint(k) for k in range(data.GetNumberOfPoints())]
        xs = sorted({round(p[0], 12) for p in pts})
        ys = sorted({round(p[1], 12) for p in pts})
    print(f"  x: {len(xs)} values {xs[0]:.6g} … {xs[-1]:.6g} (file {xdim}: {nx}, "
          f"{coords[xdim][0]:.6g} … {coords[xdim][-1]:.6g})")
    print(f"  y: {len(ys)} values {ys[0]:.6g} … {ys[-1]:.6g} (file {ydim}: {ny}, "
          f"{coords[ydim][0]:.6g} … {coords[ydim][-1]:.6g})")
    if len(xs) != nx or max(abs(a - b) for a, b in zip(xs, coords[xdim])) > 1e-9:
        failures.append(f"{dims}: x points are not {xdim}")
    if len(ys) != ny or max(abs(a - b) for a, b in zip(ys, coords[ydim])) > 1e-9:
        failures.append(f"{dims}: y points are not {ydim}")
    # Time must be ParaView's time, not a third space dimension (the writer's
    # `axis = "T"` on `time` does that; files written before it have it as z).
    layers = data.GetDimensions()[2] if kind != "vtkRectilinearGrid" else \
        data.GetZCoordinates().GetNumberOfTuples()
    if layers > 1:
        failures.append(f"{dims}: time read as a third space dimension ({layers} layers)")
    # One value: the last snapshot at (i, j) = (nx // 3, ny // 4), x fastest.
    for name in names:
        arr = pd.GetArray(name) if name in point_arrays else cd.GetArray(name)
        if arr is None:
            if name != "fluid_mask":   # on (y_c, x_c) without time: its own set
                failures.append(f"{dims}: no array {name}")
            continue
        i, j = int(0.22 * nx), int(0.45 * ny)
        file_vals = ncdump_values(path, name)
        want = file_vals[len(file_vals) - nx * ny + j * nx + i]   # last snapshot
        got = arr.GetValue((layers - 1) * nx * ny + j * nx + i)
        where = "points" if name in point_arrays else "cells"
        print(f"  {name} on {where}: ({xdim}[{i}], {ydim}[{j}]) = "
              f"({coords[xdim][i]:.6g}, {coords[ydim][j]:.6g}): ParaView {got:.10g}, "
              f"file {want:.10g}")
        if abs(got - want) > 1e-12 * max(1.0, abs(want)):
            failures.append(f"{name}: ParaView {got} != file {want}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

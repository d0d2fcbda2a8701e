#!/usr/bin/env python3
"""Count a cuobjdump -sass listing's instructions per kernel by pipe (scripts/gpu-sass.sh).

    sass_census.py CASE FILE.sass FILE.ptxas.txt

One line per kernel: case, kernel, registers and spill bytes (from ptxas -v), then static
instruction counts of the kernel's body, the subroutines it calls (the slow paths of the
FP64 division and square root, rarely executed) left out: all, FP64 (DADD DMUL DFMA DSETP
DMNMX and the F64 conversions: the FP64 pipe), MUFU (reciprocal and square-root seeds),
global loads and stores, shared-memory loads and stores, barriers; then each loop (a
backward branch; an idle `BRA` to itself at the end is not one) as `loop[all/fp64]`. A
body without loops runs once per work-item; a loop's body once per trip.
"""
import re
import sys

FP64 = {"DADD", "DMUL", "DFMA", "DSETP", "DMNMX"}
INSN = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?);")


def pipe(op):
    base = op.split(".")[0]
    if base in FP64 or (base in ("F2F", "I2F", "F2I") and "F64" in op):
        return "fp64"
    return {"MUFU": "mufu", "LDG": "ldg", "STG": "stg", "LDS": "lds", "STS": "sts",
            "BAR": "bar"}.get(base, "other")


def registers(ptxas):
    regs, spills, fn = {}, {}, None
    for line in open(ptxas, errors="replace"):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            fn = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and fn:
            regs[fn] = int(m.group(1))
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and fn:
            spills[fn] = int(m.group(1))
    return regs, spills


def target(rest):
    t = re.search(r"0x([0-9a-f]+)", rest)
    return int(t.group(1), 16) if t else None


def census(ins):
    """Counts of the body (before the first called subroutine) and its loops."""
    calls = [target(r) for _, op, r in ins if op.startswith("CALL")]
    end = min([c for c in calls if c is not None], default=None)
    body = [x for x in ins if end is None or x[0] < end]
    count = {"all": 0}
    for _, op, _ in body:
        if op == "NOP":
            continue
        count["all"] += 1
        p = pipe(op)
        count[p] = count.get(p, 0) + 1
    loops = []
    for a, op, r in body:
        t = target(r) if op.startswith("BRA") else None
        if t is not None and t < a:
            inside = [x for x in body if t <= x[0] <= a and x[1] != "NOP"]
            fp = sum(1 for x in inside if pipe(x[1]) == "fp64")
            loops.append(f"[{len(inside)}/{fp}]")
    return count, loops


def main():
    case, sass, ptxas = sys.argv[1:4]
    regs, spills = registers(ptxas)
    kernels, fn = {}, None
    for line in open(sass, errors="replace"):
        m = re.search(r"Function : (\S+)", line)
        if m:
            fn = m.group(1)
            kernels[fn] = []
            continue
        m = INSN.match(line)
        if m and fn is not None:
            kernels[fn].append((int(m.group(1), 16), m.group(3), m.group(4)))
    for fn, ins in kernels.items():
        k, loops = census(ins)
        print(
            f"{case:18s} {fn:22s} regs {regs.get(fn, '?'):>3} spill {spills.get(fn, 0):>3} "
            f"all {k['all']:5d} fp64 {k.get('fp64', 0):5d} mufu {k.get('mufu', 0):3d} "
            f"ldg {k.get('ldg', 0):3d} stg {k.get('stg', 0):3d} lds {k.get('lds', 0):3d} "
            f"sts {k.get('sts', 0):3d} bar {k.get('bar', 0):2d} loops {' '.join(loops) or '-'}"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Count FP64 operations and global-memory bytes per OpenCL kernel by replaying a traced step
in the counting build of the kernels (scripts/kernel_count/harness.hpp).

    count_kernels.py TRACE_DIR... --out src/bench/counts.json [--case PATH]

Each TRACE_DIR comes from `simplets bench CASE --trace TRACE_DIR` (one form and scheme each).
A later trace of a form and scheme already read only adds the kernels the earlier one did
not launch (the C++-order trace adds the phase form's tp_sweep).
For every trace the kernel source is compiled as C++ (g++ -std=c++20) with the counting `real`
type, the step's commands are replayed on the traced buffers, and the final buffers are
compared with the device's (`after/`): the replay must reproduce them bit for bit, or the
script fails. Counts are written per unit: per work-item for kernels launched without a
work-group size, per stored cell for kernels launched in work-groups (which loop over cells).
Method and caveats: docs/PERFORMANCE.md, "How bytes and flops are counted". Standard library
only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS_DIR = os.path.join(HERE, "kernel_count")

METHOD = (
    "Counting build of the kernels (scripts/count_kernels.py): the assembled OpenCL source "
    "compiled as C++ with a counting FP64 type, replaying one traced time step (one loop-2 "
    "iteration) of the count case on the device's buffers; the replay reproduces the device's "
    "buffers bit for bit. flops = add + sub + mul + div + sqrt executed as written in the "
    "source (no common-subexpression elimination: an upper bound of what a compiler issues); "
    "bytes = compulsory global-memory traffic, each distinct element read before written and "
    "each distinct element written once per launch (perfect caching within a launch). Units: "
    "per work-item (kernels without a work-group size) or per stored cell (kernels in "
    "work-groups)."
)


def to_cxx(source):
    """OpenCL C of the simplets kernels -> C++ for the counting harness."""
    s = source.replace("typedef double real;", "/* real: counting type of harness.hpp */")
    s = re.sub(r"__global\s+const\s+int\s*\*", "const gint*", s)
    s = re.sub(r"__global\s+int\s*\*", "gint*", s)
    s = re.sub(r"__local\s+(real|int)\s+(\w+)\s*\[", r"static \1 \2[", s)
    s = s.replace("__local", "")
    return s


def defines(options):
    """-D NAME=VALUE options of a build-option string, as g++ arguments."""
    out = []
    for m in re.finditer(r"-D\s*(\S+)", options):
        out.append("-D" + m.group(1))
    return out


def main_cpp(trace):
    """The replay program of one trace."""
    bufs = trace["buffers"]
    ids = {b["name"]: i for i, b in enumerate(bufs)}
    lines = [
        '#include "harness.hpp"',
        '#include "kernel_cxx.cl"',
        "#include <fstream>",
        "#include <cstring>",
        "static std::vector<std::vector<char>> B;",
        "static bool load(const std::string& path, std::vector<char>& v) {",
        "    std::ifstream f(path, std::ios::binary);",
        "    return f && f.read(v.data(), (std::streamsize)v.size()) && true;",
        "}",
        "int main(int argc, char** argv) {",
        "    if (argc < 2) { std::fprintf(stderr, \"usage: count TRACE_DIR\\n\"); return 2; }",
        "    const std::string dir = argv[1];",
        f"    B.resize({len(bufs)});",
        f"    const char* names[{len(bufs)}] = {{{', '.join(json.dumps(b['name']) for b in bufs)}}};",
        f"    const size_t elems[{len(bufs)}] = {{{', '.join(str(b['elem']) for b in bufs)}}};",
        f"    const size_t lens[{len(bufs)}] = {{{', '.join(str(b['len']) for b in bufs)}}};",
        f"    for (int i = 0; i < {len(bufs)}; i++) {{",
        "        B[i].resize(elems[i] * lens[i]);",
        "        if (!load(dir + \"/buf/\" + names[i] + \".bin\", B[i])) {",
        "            std::fprintf(stderr, \"cannot read buffer %s\\n\", names[i]); return 1; }",
        "        kc::add_buffer(names[i], elems[i], lens[i], B[i].data());",
        "    }",
    ]
    for op in trace["ops"]:
        if op["op"] == "copy":
            s, d = ids[op["src"]], ids[op["dst"]]
            lines.append(f"    std::memcpy(B[{d}].data(), B[{s}].data(), B[{d}].size());")
            continue
        inst = trace["instances"][op["instance"]]
        args = []
        for a in inst["args"]:
            t = "gint" if "int" in a["type_name"] else "real"
            args.append(f"({t}*)B[{ids[a['buffer']]}].data()")
        glob = ", ".join(str(g) for g in op["global"])
        loc = ", ".join(str(l) for l in (op["local"] or []))
        lines.append("    kc::reset_marks();")
        lines.append(
            f"    kc::launch([&] {{ {inst['kernel']}({', '.join(args)}); }}, {{{glob}}}, {{{loc}}});"
        )
        lines.append(f'    kc::report("{op["instance"]}");')
    lines += [
        "    // The device's buffers after the step: the replay must give the same bits.",
        "    int bad = 0;",
        f"    for (int i = 0; i < {len(bufs)}; i++) {{",
        "        std::vector<char> after(B[i].size());",
        "        if (!load(dir + \"/after/\" + names[i] + \".bin\", after)) {",
        "            std::fprintf(stderr, \"cannot read after/%s\\n\", names[i]); return 1; }",
        "        if (std::memcmp(after.data(), B[i].data(), after.size()) != 0) {",
        "            std::fprintf(stderr, \"replay differs from the device in %s\\n\", names[i]);",
        "            bad++; }",
        "    }",
        '    std::printf("{\\"mismatched_buffers\\": %d}\\n", bad);',
        "    return bad ? 1 : 0;",
        "}",
    ]
    return "\n".join(lines) + "\n"


def run_trace(tdir, work, cxx):
    with open(os.path.join(tdir, "trace.json")) as f:
        trace = json.load(f)
    with open(os.path.join(tdir, "kernel.cl")) as f:
        source = f.read()
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "kernel_cxx.cl"), "w") as f:
        f.write(to_cxx(source))
    with open(os.path.join(work, "main.cpp"), "w") as f:
        f.write(main_cpp(trace))
    exe = os.path.join(work, "count")
    cmd = [cxx, "-std=c++20", "-O1", "-pthread", "-w", "-I", HARNESS_DIR, "-I", work]
    cmd += defines(trace["options"]) + [os.path.join(work, "main.cpp"), "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"count_kernels: compiling {tdir} failed:\n{r.stderr[:4000]}")
    r = subprocess.run([exe, tdir], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"count_kernels: replay of {tdir} failed:\n{r.stderr[:4000]}{r.stdout[-2000:]}")
    launches = [json.loads(l) for l in r.stdout.splitlines() if l.startswith('{"instance"')]
    return trace, launches


def aggregate(trace, launches):
    """Per kernel name: counts per unit (work-item or stored cell), averaged over launches."""
    ops = [o for o in trace["ops"] if o["op"] == "launch"]
    assert len(ops) == len(launches), "one report per launch"
    stored = trace["stored_cells"]
    acc = {}
    for op, rep in zip(ops, launches):
        kernel = trace["instances"][op["instance"]]["kernel"]
        items = 1
        for g in op["global"]:
            items *= g
        unit = "cell" if op["local"] else "item"
        units = stored if unit == "cell" else items
        a = acc.setdefault(kernel, {"unit": unit, "launches": 0, "units": 0, "n": {}})
        if a["unit"] != unit:
            sys.exit(f"count_kernels: {kernel} launched both with and without a work-group size")
        a["launches"] += 1
        a["units"] += units
        n = a["n"]
        for k in ("add", "sub", "mul", "div", "sqrt", "other"):
            n[k] = n.get(k, 0) + rep[k]
        for name, b in rep["buffers"].items():
            n.setdefault("reads", {})
            n.setdefault("writes", {})
            n["reads"][name] = n["reads"].get(name, 0) + b["read"] * b["elem"]
            n["writes"][name] = n["writes"].get(name, 0) + b["written"] * b["elem"]
            n["accessed"] = n.get("accessed", 0) + (b["loads"] + b["stores"]) * b["elem"]
    out = {}
    for kernel, a in sorted(acc.items()):
        u = float(a["units"])
        n = a["n"]
        per = {k: n.get(k, 0) / u for k in ("add", "sub", "mul", "div", "sqrt", "other")}
        reads = {b: v / u for b, v in sorted(n.get("reads", {}).items()) if v}
        writes = {b: v / u for b, v in sorted(n.get("writes", {}).items()) if v}
        out[kernel] = {
            "unit": a["unit"],
            "launches": a["launches"],
            "flops": per["add"] + per["sub"] + per["mul"] + per["div"] + per["sqrt"],
            **per,
            "bytes_read": sum(reads.values()),
            "bytes_written": sum(writes.values()),
            "bytes_accessed": n.get("accessed", 0) / u,
            "reads": reads,
            "writes": writes,
        }
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+", help="trace directories (simplets bench --trace)")
    ap.add_argument("--out", required=True, help="counts JSON to write")
    ap.add_argument("--case", default="scripts/kernel_count/case.json", help="case label")
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    args = ap.parse_args()
    counts = {"method": METHOD, "case": args.case, "forms": {}}
    with tempfile.TemporaryDirectory(prefix="simplets-count-") as tmp:
        for i, tdir in enumerate(args.traces):
            trace, launches = run_trace(tdir, os.path.join(tmp, str(i)), args.cxx)
            form = counts["forms"].setdefault(
                trace["form"], {"source_hash": trace["source_hash"], "schemes": {}}
            )
            if form["source_hash"] != trace["source_hash"]:
                sys.exit(f"count_kernels: traces of {trace['form']} come from different sources")
            kernels = aggregate(trace, launches)
            known = form["schemes"].get(trace["scheme"])
            if known is not None:
                # A second trace of the same form and scheme (the C++-order case): it adds the
                # kernels the first did not launch (tp_sweep) and leaves the others as counted.
                added = {k: v for k, v in kernels.items() if k not in known["kernels"]}
                known["kernels"].update(added)
                print(
                    f"{trace['form']:6} {trace['scheme']:16} ({trace['case']}) adds "
                    + (", ".join(sorted(added)) or "nothing"),
                    file=sys.stderr,
                )
                continue
            form["schemes"][trace["scheme"]] = {
                "stored_cells": trace["stored_cells"],
                "fluid_cells": trace["fluid_cells"],
                "kernels": kernels,
            }
            ks = form["schemes"][trace["scheme"]]["kernels"]
            print(
                f"{trace['form']:6} {trace['scheme']:16} "
                + ", ".join(
                    f"{k} {v['flops']:.0f} flop {v['bytes_read'] + v['bytes_written']:.0f} B/{v['unit']}"
                    for k, v in ks.items()
                    if v["unit"] == "cell" or v["launches"] and k in ("pseudo", "tp", "loop2")
                ),
                file=sys.stderr,
            )
    with open(args.out, "w") as f:
        json.dump(counts, f, indent=1, sort_keys=True)
        f.write("\n")
    print(args.out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a PTX module of about --mb megabytes to stdout: the kernels of the nvcc corpus in
tests/ptx/parse/ (vadd, reduce, warp_ops, atomics) again and again, each copy's names suffixed so
they stay distinct. ptxas accepts the result, so the PTX front end and ptxas read the same text."""
import argparse
import os
import re

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ptx", "parse")
ap = argparse.ArgumentParser()
ap.add_argument("--mb", type=float, default=1.0)
args = ap.parse_args()

header, bodies = [], []
for name, kernel in (("vadd", "vadd"), ("reduce", "reduce"), ("warp", "warp_ops"), ("atomics", "atomics")):
    text = open(os.path.join(here, "nvcc_sm90_%s.ptx" % name)).read()
    # module-level variables stay once in the header; functions are the part that repeats
    start = text.index(".visible .entry")
    for line in text[:start].splitlines():
        if line.startswith((".global", ".const", ".extern .shared")) and line not in header:
            header.append(line)
    bodies.append((kernel, text[start:]))

out = [".version 9.0", ".target sm_90", ".address_size 64", ""] + header + [""]
size, target, copy = sum(len(l) + 1 for l in out), int(args.mb * 1e6), 0
while size < target:
    for kernel, body in bodies:
        # every name that contains the kernel's name (params, demoted shared arrays, the kernel)
        renamed = re.sub(r"([A-Za-z_$][A-Za-z0-9_$]*)",
                         lambda m: m.group(1).replace(kernel, "%s_c%d" % (kernel, copy))
                         if kernel in m.group(1) else m.group(1), body)
        out.append(renamed)
        size += len(renamed) + 1
    copy += 1
print("\n".join(out))

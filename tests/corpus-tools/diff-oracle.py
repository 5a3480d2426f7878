#!/usr/bin/env python3
"""Checks --diff's ordering check against the all-pairs reference on many generated programs.

    diff-oracle.py --gpuinterp BIN --dir DIR

Writes programs into DIR: bench/gen_dag.py random async DAGs (40 to 400 ops, several seeds),
bench/gen_order.py's strided, reads, syncs and wide programs at small sizes, and tests/gen/genprog.py
programs; takes tests/lit/diff's strided, reads and kernel-ordering programs (kernels with many
ranges, atomics) and tests/mutants/corpus; and runs `gpuinterp --diff --seeds=0` on each, as lowered and with one
mgpuStreamWaitEvent left out (--lower-mutate=drop-wait:K at a few K), under
GPUINTERP_DIFF_ORACLE=stats: after the ordering check, every pair of conflicting accesses is
compared (tools/diff.c, lost_ordering_oracle), and the process aborts where the two verdicts
differ. A run must print the oracle's line; the unmutated lowerings must lose no ordering, and
some mutants must (so that the comparison is not vacuous). Prints one summary line; exit 1 on
any failure, naming the command.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STATS = re.compile(r"diff oracle: (\d+) lost orderings, (\d+) found by the ordering check, the verdicts agree")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpuinterp", required=True)
    ap.add_argument("--dir", required=True)
    a = ap.parse_args()
    progs = []

    def gen(name, cmd):
        path = os.path.join(a.dir, name + ".mlir")
        subprocess.run([sys.executable] + cmd + ["-o", path], check=True)
        progs.append(path)

    for seed in range(1, 9):
        gen("dag%d" % seed, [os.path.join(ROOT, "bench", "gen_dag.py"), str(40 * seed + 7 * (seed % 3)), str(seed)])
    for kind, size in (("strided", 6), ("reads", 70), ("syncs", 12), ("wide", 160)):
        gen(kind, [os.path.join(ROOT, "bench", "gen_order.py"), kind, str(size)])
    for seed in range(1, 13):
        gen("genprog%d" % seed, [os.path.join(ROOT, "tests", "gen", "genprog.py"), str(seed)])
    # kernels with many ranges, atomics, reads between writes, and the mutants' corpus
    for name in ("strided", "reads", "kernel-ordering"):
        progs.append(os.path.join(ROOT, "tests", "lit", "diff", name + ".mlir"))
    corpus = os.path.join(ROOT, "tests", "mutants", "corpus")
    progs += sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if f.endswith(".mlir"))
    env = dict(os.environ, GPUINTERP_DIFF_ORACLE="stats")
    runs = lost_runs = 0
    failures = []
    for p in progs:
        for mutate in [None, 0, 1, 3, 7, 15, 31]:
            cmd = [a.gpuinterp, "--diff", "--seeds=0", p]
            if mutate is not None:
                cmd.append("--lower-mutate=drop-wait:%d" % mutate)
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
            if mutate is not None and "the lowering has no site %d of mutation" % mutate in r.stderr:
                continue  # fewer sites than that
            m = STATS.search(r.stderr)
            runs += 1
            if not m or r.returncode not in (0, 1):
                failures.append("%s (exit %d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()[-400:]))
                continue
            lost = int(m.group(1))
            if mutate is None and lost:
                failures.append("%s: the lowering loses %d orderings" % (" ".join(cmd), lost))
            lost_runs += lost > 0
    if not lost_runs:
        failures.append("no run lost an ordering: the comparison proved nothing")
    for f in failures:
        print("FAIL: GPUINTERP_DIFF_ORACLE=stats " + f)
    print("%d runs, %d losing orderings, %d failures" % (runs, lost_runs, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

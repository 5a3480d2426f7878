#!/usr/bin/env python3
"""Runs genprog.py programs through mlir-opt and gpuinterp and checks the results.

    check.py --gpuinterp BIN --mlir-opt BIN --dir DIR [--drop-dep] [--oracle] [--features F,...] SEED...

For each seed: the program is generated twice, in this process and in a fresh one, and the two
must be identical (the generator is deterministic); mlir-opt must accept it; then
  - by default gpuinterp --sched=serial and --sched=random:SEED must exit 0, print nothing on
    stderr and print exactly the expected output (the address after `base@ =` aside);
  - with --drop-dep both runs must exit 1 with a diagnostic containing "race";
  - with --oracle gpuinterp also runs under --sched=threads, each run with GPUINTERP_RACE_ORACLE=1:
    the sim checks its race verdict on every access against an exact vector-clock detector and
    aborts where they differ (sim/race_oracle.c).
--features: the union of the features of all seeds must hold each of these.
A failure names the seed and what failed, and keeps the program in DIR with the command to rerun;
the files of seeds that pass are removed. Exit 1 on any failure.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import genprog  # noqa: E402


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def in_process(seed, drop):
    g, st = genprog.generate(seed)
    note = None
    if drop:
        found = genprog.drop_dep(g, seed)
        if found is None:
            return None, None, g.features
        e = genprog.Emitter(g)
        e.program(seed)
        s, dep, (s1, s2, hazard, _) = found
        note = ("drop-dep: removed %%%s from the dependencies of the op at %s; now the ops at "
                "%s and %s race (%s)" % (dep, e.loc[s.id], e.loc[s1], e.loc[s2], hazard))
    return genprog.Emitter(g).program(seed, note), "".join(st.out), g.features


def check(a, seed):
    """Returns (failure or None, features)."""
    base = os.path.join(a.dir, "seed-%d%s" % (seed, "-drop" if a.drop_dep else ""))
    prog, exp = base + ".mlir", base + ".expected"
    gen = [sys.executable, os.path.join(HERE, "genprog.py"), str(seed), "-o", prog]
    gen += ["--drop-dep", "--note", base + ".note"] if a.drop_dep else ["--emit-expected", exp]
    rc, _, err = run(gen)
    if rc != 0:
        return "genprog failed (%d): %s" % (rc, err.strip()), set()
    text, expected, feats = in_process(seed, a.drop_dep)
    with open(prog) as f:
        if f.read() != text:
            return "not deterministic: a second run gives another program", feats
    if not a.drop_dep:
        with open(exp) as f:
            if f.read() != expected:
                return "not deterministic: a second run gives another expected output", feats
    rc, _, err = run([a.mlir_opt, prog, "-o", os.devnull])
    if rc != 0:
        return "mlir-opt rejects it: %s\n  rerun: %s %s" % (err.strip()[:2000], a.mlir_opt, prog), feats
    scheds = ["serial", "random:%d" % seed] + (["threads"] if a.oracle else [])
    env = dict(os.environ, GPUINTERP_RACE_ORACLE="1") if a.oracle else None
    for sched in scheds:
        cmd = [a.gpuinterp, "--sched=" + sched, prog]
        rc, out, err = run(cmd, env)
        rerun = "\n  rerun: %s%s" % ("GPUINTERP_RACE_ORACLE=1 " if a.oracle else "", " ".join(cmd))
        if a.drop_dep:
            if rc != 1 or "race" not in err:
                with open(base + ".note") as f:
                    note = f.read().strip()
                return ("expected a race (%s), got exit %d:\n%s%s" % (note, rc, err.strip()[:2000],
                                                                     rerun)), feats
            continue
        out = re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = ADDR", out)
        if rc != 0 or err:
            return "exit %d, stderr:\n%s%s" % (rc, err.strip()[:2000], rerun), feats
        if out != expected:
            with open(base + ".out", "w") as f:
                f.write(out)
            return "output differs from %s (got %s.out)%s" % (exp, base, rerun), feats
    for ext in (".mlir", ".expected", ".note", ".out"):
        if os.path.exists(base + ext):
            os.remove(base + ext)
    return None, feats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpuinterp", required=True)
    ap.add_argument("--mlir-opt", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--drop-dep", action="store_true")
    ap.add_argument("--oracle", action="store_true")
    ap.add_argument("--features", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("seeds", type=int, nargs="+")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(lambda s: check(a, s), a.seeds))
    fails, feats = 0, set()
    for seed, (fail, f) in zip(a.seeds, results):
        feats |= f
        if fail:
            fails += 1
            print("FAIL seed %d%s: %s" % (seed, " (--drop-dep)" if a.drop_dep else "", fail))
    missing = [f for f in a.features.split(",") if f and f not in feats]
    if missing:
        fails += 1
        print("FAIL: no seed uses %s" % ", ".join(missing))
    print("%d seeds, %d failures" % (len(a.seeds), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

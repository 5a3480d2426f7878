#!/bin/sh
# bench/scale-diff.sh [RUNS] - what the differential check (--diff) costs as programs grow.
#
# bench/gen_dag.py writes random race-free async DAG programs of 1k, 10k and 100k ops (SIZES="..."
# to change) and an empty one (0 ops: parsing, start-up, the buffers). Each size runs RUNS times
# (default 3), alternating:
#   diff    gpuinterp --diff --seeds=SEEDS (default 0: the serial and threads schedules, where
#           the happens-before checks run; the random schedules only add runs like the peers')
#   plain   gpuinterp --sched=serial on the program (the peer)
#   runs    the runs --diff makes, without it: the program and its lowering (gpuinterp --lower,
#           written once, not timed) under serial and threads, their CPU times added, their peak
#           RSS the largest
# The figures are medians: time/op, whole-process CPU time (user + sys) less the empty program's,
# per op; peak RSS, "Maximum resident set size" of /usr/bin/time -v. The targets: time/op of
# --diff within 1.3x across sizes (it grows no faster than the program), and --diff's time and
# peak RSS against the runs it makes, which must not grow with size either (max/min of the ratio
# over sizes within 1.3x). CPU time, not wall time: the machine may be shared.
# Needs build/gpuinterp (ninja) and python3.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-3}
SIZES=${SIZES:-"1000 10000 100000"}
SEEDS=${SEEDS:-0}
BIN=build/gpuinterp
[ -x "$BIN" ] || { echo "bench/scale-diff.sh: $BIN is missing (ninja builds it)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/scale-diff.sh: /usr/bin/time is missing" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 0 $SIZES; do
  python3 bench/gen_dag.py "$n" -o "$dir/dag$n.mlir"
  "$BIN" --lower "$dir/dag$n.mlir" -o "$dir/low$n.mlir"
  # the lowering must agree with the program before it is timed
  "$BIN" --diff --seeds=0 "$dir/dag$n.mlir"
done
export BIN RUNS SIZES SEEDS dir
exec python3 - <<'PY'
import sys
sys.path.insert(0, "bench")
from timing import timed as bench_timed
import os, re, statistics, subprocess

BIN, RUNS, DIR, SEEDS = os.environ["BIN"], int(os.environ["RUNS"]), os.environ["dir"], os.environ["SEEDS"]
SIZES = [int(s) for s in os.environ["SIZES"].split()]


def prog(n, what="dag"):
    return os.path.join(DIR, "%s%d.mlir" % (what, n))


def timed(c):
    """CPU seconds (user + sys) and peak RSS in KB of one run."""
    return bench_timed(c, DIR, "bench/scale-diff.sh")


def measure(n):
    d = timed([BIN, "--diff", "--seeds=" + SEEDS, prog(n)])
    p = timed([BIN, "--sched=serial", prog(n)])
    rs = [timed([BIN, "--sched=" + s, prog(n, w)]) for w in ("dag", "low") for s in ("serial", "threads")]
    return {"diff": d, "plain": p, "runs": (sum(t for t, _ in rs), max(m for _, m in rs))}


print("bench/scale-diff.sh: random async DAGs (bench/gen_dag.py), --diff --seeds=%s, median of %d runs,"
      " CPU time" % (SEEDS, RUNS))
print("  load average at start: %s" % open("/proc/loadavg").read().split()[:3])
res = {}
for n in [0] + SIZES:
    samples = [measure(n) for _ in range(RUNS)]  # each round runs all three, so load hits them alike
    for k in ("diff", "plain", "runs"):
        res[n, k] = (statistics.median(s[k][0] for s in samples), statistics.median(s[k][1] for s in samples))

print("  %7s  %-6s %10s %10s   %s" % ("ops", "what", "time/op", "peak RSS", "diff against it (time, RSS)"))
per, rt, rm = [], [], []
for n in SIZES:
    for k in ("diff", "plain", "runs"):
        t, m = res[n, k]
        us = (t - res[0, k][0]) / n * 1e6
        if k == "diff":
            per.append(us)
            vs = ""
        else:
            dt, dm = (res[n, "diff"][0] - res[0, "diff"][0]) / max(t - res[0, k][0], 1e-9), res[n, "diff"][1] / m
            vs = "%.2fx, %.2fx" % (dt, dm)
            if k == "runs":
                rt.append(dt)
                rm.append(dm)
        print("  %7d  %-6s %7.2f us %7.1f MB   %s" % (n, k, us, m / 1024, vs))
ok = max(per) / min(per) <= 1.3 and max(rt) / min(rt) <= 1.3 and max(rm) / min(rm) <= 1.3
print("targets: --diff time/op max/min over sizes %.2fx (<= 1.3x); against the runs it makes: time %.2fx,"
      " peak RSS %.2fx max/min over sizes (<= 1.3x)%s"
      % (max(per) / min(per), max(rt) / min(rt), max(rm) / min(rm), "  ok" if ok else "  MISSED"))
print("  load average at end: %s" % open("/proc/loadavg").read().split()[:3])
PY

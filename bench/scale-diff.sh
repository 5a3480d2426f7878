#!/bin/sh
# bench/scale-diff.sh [RUNS] - what the differential check (--diff) costs as programs grow.
#
# GEN picks the programs (SIZES="..." changes their sizes), each written with an empty one (size 0:
# parsing, start-up, the buffers):
#   dag      (the default) bench/gen_dag.py's random race-free async DAGs of 1k, 10k and 100k ops
#   strided  bench/gen_order.py strided: 300, 3k and 30k kernels that each read and write a
#            buffer in 32 separate ranges, none covering another
#   reads    bench/gen_order.py reads: 1k, 10k and 100k ops in one chain over one buffer, reads of
#            one half between writes of the other, and batches of whole-buffer reads then
#            one-element writes
#   syncs    bench/gen_order.py syncs: 1k, 10k and 100k memsets in one chain, checked against
#            the lowering with a host synchronization after every memset (--against)
#   wide     bench/gen_order.py wide: 1k, 4k and 16k memsets in chains of 16 (a graph whose
#            width grows with it: the clocks are nodes x width)
# Each size runs RUNS times (default 3), alternating:
#   diff    gpuinterp --diff --seeds=SEEDS (default 0: the serial and threads schedules, where
#           the happens-before checks run; the random schedules only add runs like the peers')
#   plain   gpuinterp --sched=serial on the program (the peer)
#   runs    the runs --diff makes, without it: the program and its lowering (gpuinterp --lower,
#           written once, not timed; for syncs the synchronized one) under serial and threads,
#           their CPU times added, their peak RSS the largest
# The figures are medians: time/op, whole-process CPU time (user + sys) less the empty program's,
# per op; peak RSS, "Maximum resident set size" of /usr/bin/time -v. The targets: time/op of
# --diff within 1.3x across sizes (it grows no faster than the program), and --diff's time and
# peak RSS against the runs it makes, which must not grow with size either (max/min of the ratio
# over sizes within 1.3x). CPU time, not wall time: the machine may be shared.
# Needs build/gpuinterp (ninja; BIN=... another) and python3.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-3}
GEN=${GEN:-dag}
case $GEN in
  dag|reads|syncs) SIZES=${SIZES:-"1000 10000 100000"} ;;
  wide) SIZES=${SIZES:-"1000 4000 16000"} ;;
  strided) SIZES=${SIZES:-"300 3000 30000"} ;;
  *) echo "bench/scale-diff.sh: GEN=$GEN is none of dag, strided, reads, syncs, wide" >&2; exit 2 ;;
esac
SEEDS=${SEEDS:-0}
BIN=${BIN:-build/gpuinterp}
[ -x "$BIN" ] || { echo "bench/scale-diff.sh: $BIN is missing (ninja builds it)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/scale-diff.sh: /usr/bin/time is missing" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 0 $SIZES; do
  if [ "$GEN" = dag ]; then
    python3 bench/gen_dag.py "$n" -o "$dir/dag$n.mlir"
  else
    python3 bench/gen_order.py "$GEN" "$n" -o "$dir/dag$n.mlir"
  fi
  "$BIN" --lower "$dir/dag$n.mlir" -o "$dir/low$n.mlir"
  if [ "$GEN" = syncs ]; then
    python3 bench/gen_order.py --synced "$dir/low$n.mlir" "$dir/sync$n.mlir" syncs 0
    mv "$dir/sync$n.mlir" "$dir/low$n.mlir"
  fi
  # the lowering must agree with the program before it is timed
  if [ "$GEN" = syncs ]; then
    "$BIN" --diff --seeds=0 "$dir/dag$n.mlir" --against "$dir/low$n.mlir"
  else
    "$BIN" --diff --seeds=0 "$dir/dag$n.mlir"
  fi
done
export BIN RUNS SIZES SEEDS GEN dir
exec python3 - <<'PY'
import sys
sys.path.insert(0, "bench")
from timing import timed as bench_timed
import os, re, statistics, subprocess

BIN, RUNS, DIR, SEEDS = os.environ["BIN"], int(os.environ["RUNS"]), os.environ["dir"], os.environ["SEEDS"]
GEN = os.environ["GEN"]
UNIT = "kernel" if GEN == "strided" else "op"
SIZES = [int(s) for s in os.environ["SIZES"].split()]


def prog(n, what="dag"):
    return os.path.join(DIR, "%s%d.mlir" % (what, n))


def timed(c):
    """CPU seconds (user + sys) and peak RSS in KB of one run."""
    return bench_timed(c, DIR, "bench/scale-diff.sh")


def measure(n):
    against = ["--against", prog(n, "low")] if GEN == "syncs" else []
    d = timed([BIN, "--diff", "--seeds=" + SEEDS, prog(n)] + against)
    p = timed([BIN, "--sched=serial", prog(n)])
    rs = [timed([BIN, "--sched=" + s, prog(n, w)]) for w in ("dag", "low") for s in ("serial", "threads")]
    return {"diff": d, "plain": p, "runs": (sum(t for t, _ in rs), max(m for _, m in rs))}


what = "random async DAGs (bench/gen_dag.py)" if GEN == "dag" else "bench/gen_order.py " + GEN
print("bench/scale-diff.sh: %s, --diff --seeds=%s, median of %d runs, CPU time" % (what, SEEDS, RUNS))
print("  load average at start: %s" % open("/proc/loadavg").read().split()[:3])
res = {}
for n in [0] + SIZES:
    samples = [measure(n) for _ in range(RUNS)]  # each round runs all three, so load hits them alike
    for k in ("diff", "plain", "runs"):
        res[n, k] = (statistics.median(s[k][0] for s in samples), statistics.median(s[k][1] for s in samples))

print("  %7s  %-6s %10s %10s   %s" % (UNIT + "s", "what", "time/" + UNIT, "peak RSS", "diff against it (time, RSS)"))
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
print("targets: --diff time/" + UNIT + " max/min over sizes %.2fx (<= 1.3x); against the runs it makes: time %.2fx,"
      " peak RSS %.2fx max/min over sizes (<= 1.3x)%s"
      % (max(per) / min(per), max(rt) / min(rt), max(rm) / min(rm), "  ok" if ok else "  MISSED"))
print("  load average at end: %s" % open("/proc/loadavg").read().split()[:3])
PY
